// Control routes for raids: many users joining at once, a user whose account is some days old
// (its id made at that time, as Discord's ids carry their creation time), and a user joining
// through an invite, which Discord refuses while the guild's invites are paused (incident actions).
import { z } from 'zod';
import { ControlError, controlGuild, parseControlBody } from './control-errors';
import { invitesPaused } from './rest/incidents';
import { ok, type Router } from './router';
import type { SandboxServices } from './services';
import type { World } from './world';

const DAY_MS = 86_400_000;
/** The most users one burst makes. */
export const MAX_BURST = 200;

const accountAgeDays = z.number().int().min(0).max(5000);

/** POST /_sandbox/guilds/:guildId/members/burst */
const burstSchema = z.object({
  count: z.number().int().min(1).max(MAX_BURST),
  /** Usernames are `${prefix}${n}`. */
  prefix: z.string().min(2).max(24).default('raider'),
  accountAgeDays: accountAgeDays.optional(),
});

/** POST /_sandbox/invites/:code/accept */
const acceptSchema = z.object({ username: z.string().min(2).max(32), accountAgeDays: accountAgeDays.optional() });

/** A new user's id: made now, or `days` days ago. */
export function newUserId(world: World, days: number | undefined): string {
  return days === undefined ? world.snowflakes.next() : world.snowflakes.backdated(world.clock.ms() - days * DAY_MS);
}

/** The raid routes of the control API (see the README). */
export function registerRaidControls(router: Router, services: SandboxServices): void {
  const { world } = services;

  router.add('POST', '/guilds/:guildId/members/burst', 'none', ({ params, body }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const input = parseControlBody(burstSchema, body);
    const userIds: string[] = [];
    for (let n = 1; n <= input.count; n++) {
      const member = world.addMember(guild.id, { id: newUserId(world, input.accountAgeDays), username: `${input.prefix}${n}`.slice(0, 32) });
      userIds.push(member.userId);
    }
    return ok({ userIds }, 201);
  });

  router.add('POST', '/invites/:code/accept', 'none', ({ params, body }) => {
    const input = parseControlBody(acceptSchema, body);
    const invite = world.invites.get(params.code ?? '');
    if (!invite) throw new ControlError(404, 'unknown_invite', 'Unknown Invite: it does not exist, expired or was used up.');
    const guild = controlGuild(services, invite.guildId);
    if (invitesPaused(world, guild)) throw new ControlError(403, 'invites_paused', 'Invites are paused for this server: nobody can join through one now.');
    const member = world.addMember(guild.id, { id: newUserId(world, input.accountAgeDays), username: input.username });
    invite.uses += 1;
    return ok({ id: member.userId, username: input.username, joinedAt: member.joinedAt, uses: invite.uses }, 201);
  });
}
