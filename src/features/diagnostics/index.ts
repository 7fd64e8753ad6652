import type { Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import { guildRoute } from '../../http/route';
import { DIAGNOSTIC_FEATURES, DiagnosticsQuery, type DiagnosticFeature, type Diagnostics } from '../../shared/diagnostics';

/**
 * Everything that will fail now in the guild, from every feature that can tell, each with how to
 * fix it. Computed from the live gateway on each call, so a role moved or a permission changed in
 * Discord shows at once.
 */
export async function diagnose(services: Services, guildId: string): Promise<Diagnostics> {
  const settings = await services.settings.get(guildId);
  const lists = await Promise.all(
    services.features.map(async (feature) => {
      try {
        return (await feature.diagnose?.(services, guildId, settings)) ?? [];
      } catch (error) {
        services.logger.error({ err: error, feature: feature.name, guildId }, 'diagnostics failed');
        return [];
      }
    }),
  );
  const items = lists.flat();
  const counts = Object.fromEntries(DIAGNOSTIC_FEATURES.map((feature) => [feature, items.filter((item) => item.feature === feature).length])) as Record<
    DiagnosticFeature,
    number
  >;
  return { items, counts };
}

/** GET /api/servers/:guildId/diagnostics: what will fail, per feature. */
export const diagnosticsFeature: Feature = {
  name: 'diagnostics',
  routes: [
    guildRoute({
      method: 'get',
      path: '/diagnostics',
      query: DiagnosticsQuery,
      // Not kept for a second like other reads: nothing the dashboard writes forgets it, and a fix made in Discord must show on the next look.
      cache: false,
      example: {},
      handler: async ({ query, guild, services }): Promise<Diagnostics> => {
        const all = await diagnose(services, guild.id);
        return query.feature ? { ...all, items: all.items.filter((item) => item.feature === query.feature) } : all;
      },
    }),
  ],
};
