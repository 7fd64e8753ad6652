import { featureState, type Feature } from '../../core/feature';
import { publicRoute } from '../../http/route';
import type { Health } from '../../shared/health';
import type { Command } from '../../bot/command';
import type { Services } from '../../core/services';
import { TtlCache } from '../../core/ttl-cache';

/** The store's answer is believed for a second: a probe hammering /api/health costs one query a second, not one each. */
const STORE_CHECK_MS = 1000;
/** The system's state: the store's last answer to a health check. */
const systemState = featureState('system', () => ({ storeChecks: new TtlCache<boolean>(STORE_CHECK_MS) }));

/** Whether the store answers, asked at most once a second per product. */
function storeAnswers(services: Services): Promise<boolean> {
  return systemState.of(services).storeChecks.get('store', () => services.store.ping());
}

/** /ping: shows that the bot is alive and its gateway latency. */
export const pingCommand: Command = {
  name: 'ping',
  description: 'Check that the bot is online and see its latency',
  ephemeral: true,
  async run({ services }) {
    const ping = services.gateway.health().ping;
    return `Pong! Gateway latency: ${ping >= 0 ? `${ping} ms` : 'measuring…'}`;
  },
};

/** Health (for the header and the container's HEALTHCHECK), link metadata, and /ping. */
export const systemFeature: Feature = {
  name: 'system',
  state: systemState,
  routes: [
    publicRoute({
      method: 'get',
      path: '/health',
      handler: async ({ services, ctx }) => {
        const db = (await storeAnswers(services)) ? 'ok' : 'error';
        const body: Health = { status: db === 'ok' ? 'ok' : 'degraded', gateway: services.gateway.health(), db };
        ctx.set('Cache-Control', 'no-store');
        ctx.status = db === 'ok' ? 200 : 503;
        ctx.body = body;
        return undefined;
      },
    }),
    publicRoute({
      method: 'get',
      path: '/meta',
      handler: ({ services }) => services.meta,
    }),
  ],
  commands: [pingCommand],
};
