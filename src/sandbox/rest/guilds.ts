import { presentEmoji, presentGuild } from '../presenters-guild';
import { presentChannel, presentRoles } from '../presenters';
import { ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { botGuild } from './guards';

/** The guild itself, its channels and its roles. */
export function registerGuildRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('GET', '/guilds/:guildId', 'bot', ({ params, query }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const withCounts = query.get('with_counts') === 'true';
    // hub_type (Student Hubs) is gone from Discord's REST guild object; the gateway's still carries it.
    const { hub_type: _hubType, ...restGuild } = presentGuild(guild);
    return ok({
      ...restGuild,
      ...(withCounts ? { approximate_member_count: guild.members.size, approximate_presence_count: Math.ceil(guild.members.size / 3) } : {}),
    });
  });

  router.add('GET', '/guilds/:guildId/channels', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    return ok([...guild.channels.values()].map(presentChannel));
  });

  router.add('GET', '/guilds/:guildId/emojis', 'bot', ({ params }) => ok([...botGuild(world, params.guildId ?? '').emojis.values()].map(presentEmoji)));

  router.add('GET', '/guilds/:guildId/roles', 'bot', ({ params }) => ok(presentRoles(botGuild(world, params.guildId ?? ''))));
}
