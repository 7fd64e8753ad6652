import { ChannelType, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { z } from 'zod';
import { invalidChannelType, invalidFormBody, missingAccess, missingPermissions } from '../errors';
import { MAX_INVITE_MAX_AGE, unknownInvite, type InviteRecord } from '../invites';
import { channelPermissions, guildPermissions, hasPermission } from '../permissions';
import { ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import type { ChannelRecord } from '../types';
import type { World } from '../world';
import { botChannel, botGuild, requireGuildPermission } from './guards';
import { parseDiscordBody } from './validate';

const createInviteSchema = z.looseObject({
  max_age: z.number().int().min(0).nullish(),
  max_uses: z.number().int().min(0).max(100).nullish(),
  temporary: z.boolean().nullish(),
  unique: z.boolean().nullish(),
});

/** A channel invites lead to (not a category or a thread: 50024), which the bot can see with `required`. */
function inviteChannel(world: World, channelId: string, required: bigint): ChannelRecord {
  if (world.threads.get(channelId)) throw invalidChannelType();
  const { channel } = botChannel(world, channelId, required);
  if (channel.type === ChannelType.GuildCategory) throw invalidChannelType();
  return channel;
}

/** A live invite by code: 10006 when unknown, expired or used up. */
function liveInvite(world: World, code: string): InviteRecord {
  const invite = world.invites.get(code);
  if (!invite) throw unknownInvite();
  return invite;
}

/** Invites: create in a channel (Create Instant Invite), list a channel's or guild's, resolve one (anyone), revoke one. */
export function registerInviteRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('POST', '/channels/:channelId/invites', 'bot', ({ params, body, reason }) => {
    const channel = inviteChannel(world, params.channelId ?? '', P.CreateInstantInvite);
    const input = parseDiscordBody(createInviteSchema, body);
    // The spec allows more; Discord takes at most 7 days.
    if ((input.max_age ?? 0) > MAX_INVITE_MAX_AGE) {
      throw invalidFormBody({ max_age: { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${MAX_INVITE_MAX_AGE}.` } });
    }
    const { invite } = world.invites.create(
      channel,
      { inviterId: world.botUserId, maxAge: input.max_age, maxUses: input.max_uses, temporary: input.temporary, unique: input.unique },
      { actorId: world.botUserId, reason },
    );
    return ok(world.invites.present(invite, { metadata: true }));
  });

  router.add('GET', '/channels/:channelId/invites', 'bot', ({ params }) => {
    const channel = inviteChannel(world, params.channelId ?? '', P.ManageChannels);
    return ok(world.invites.inChannel(channel.id).map((invite) => world.invites.present(invite, { metadata: true })));
  });

  router.add('GET', '/guilds/:guildId/invites', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    requireGuildPermission(world, guild, P.ManageGuild);
    return ok(world.invites.inGuild(guild.id).map((invite) => world.invites.present(invite, { metadata: true })));
  });

  // Anyone may resolve an invite, signed in or not (the expiry is always in `expires_at`, with_expiration or not).
  router.add('GET', '/invites/:code', 'none', ({ params, query }) => {
    const invite = liveInvite(world, params.code ?? '');
    return ok(world.invites.present(invite, { counts: query.get('with_counts') === 'true' }));
  });

  // Revoking takes Manage Channels in the invite's channel, or Manage Server.
  router.add('DELETE', '/invites/:code', 'bot', ({ params, reason }) => {
    const invite = liveInvite(world, params.code ?? '');
    const guild = world.requireGuild(invite.guildId);
    const channel = guild.channels.get(invite.channelId);
    if (!guild.members.has(world.botUserId) || !channel) throw missingAccess();
    const mayRevoke =
      hasPermission(channelPermissions(guild, channel, world.botUserId), P.ManageChannels) ||
      hasPermission(guildPermissions(guild, world.botUserId), P.ManageGuild);
    if (!mayRevoke) throw missingPermissions();
    world.invites.delete(invite, { actorId: world.botUserId, reason });
    return ok(world.invites.present(invite));
  });
}
