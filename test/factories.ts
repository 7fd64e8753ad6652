// Factories in the style of Outline's: each makes what it needs (a member in the sandbox, a
// signed-in account, a grant, the row a route's example acts on), with overrides, so tests never
// lean on each other's state, and the product's routes carry no fixtures of their own.
import { randomBytes, randomInt } from 'node:crypto';
import type { Services } from '../src/core/services';
import { createAnnouncement } from '../src/features/announcements/service';
import { recordCase } from '../src/features/moderation/cases';
import { Readable } from 'node:stream';
import { enqueue } from '../src/features/music/control';
import { addTrack } from '../src/features/music/library';
import { resolveRow } from '../src/features/music/sources';
import { musicState } from '../src/features/music/state';
import { writeSettings } from '../src/features/settings/public';
import { openAppeal } from './appeal-fixture';
import { addReactionRole } from '../src/features/reaction-roles/service';
import { createRoleMenu } from '../src/features/role-menus/service';
import { RoleMenuInput } from '../src/shared/role-menus';
import { claimStart } from '../src/features/moderation/raid-state';
import { noiseWav } from './helpers/audio';
import type { Harness } from './helpers/harness';
import { waitFor } from './helpers/wait';

let counter = 0;
/** A unique suffix for names. */
function unique(): string {
  counter += 1;
  return `${counter}${randomInt(1000, 9999)}`;
}

/** A new member of the demo guild (GUILD_MEMBER_ADD), once the bot has seen them join. */
export async function buildMember(h: Harness, overrides: { username?: string; roleIds?: string[]; guildId?: string } = {}) {
  const guildId = overrides.guildId ?? h.guildId;
  const member = h.world.addMember(guildId, { username: overrides.username ?? `member_${unique()}`, roleIds: overrides.roleIds ?? [] });
  await waitFor(() => h.product.client.guilds.cache.get(guildId)?.members.cache.has(member.userId), 5000, 'the bot to see the new member');
  return { userId: member.userId, username: h.world.users.get(member.userId)?.username ?? '' };
}

/** A member signed in to the dashboard, with a role (e.g. Moderator for Manage Server) when given. */
export async function buildAccount(h: Harness, overrides: { roleIds?: string[] } = {}) {
  const member = await buildMember(h, overrides);
  return { ...member, session: await h.signIn(member.userId) };
}

/** Delegated dashboard access for a member (view or edit), optionally expiring. */
export async function buildGrant(
  h: Harness,
  overrides: { subjectId: string; level?: 'view' | 'edit'; subjectType?: 'role' | 'member'; expiresAt?: Date | null },
) {
  return h.product.services.grants.grant(h.guildId, {
    subjectType: overrides.subjectType ?? 'member',
    subjectId: overrides.subjectId,
    level: overrides.level ?? 'view',
    expiresAt: overrides.expiresAt ?? null,
    createdBy: h.demo.ownerUserId,
  });
}

// --- Route fixtures -----------------------------------------------------------------------------

/**
 * Makes what a route's example needs (a row to change or delete, an id to name) and returns its
 * values: path parameters by name, and the example's body and query strings written ':name' are
 * replaced by them. `callerId` is the user the example is sent as; ':self' anywhere stands for them.
 */
export type RouteFixture = (services: Services, guildId: string, callerId: string) => Promise<Record<string, string>>;

const channelNamed = (services: Services, guildId: string, name: string) => services.gateway.channels(guildId).find((channel) => channel.name === name);
const roleNamed = (services: Services, guildId: string, name: string) => services.gateway.roles(guildId).find((role) => role.name === name);

/** A plain member of the demo guild other than the caller (no roles but @everyone), for the moderation examples. */
function plainMember(services: Services, guildId: string, callerId: string): string {
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const member = guild?.members.cache.find((m) => !m.user.bot && m.id !== callerId && m.id !== guild.ownerId && m.roles.cache.size === 1);
  return member?.id ?? '0';
}

/** A case about a plain member, stored as it is (by the caller); its number. */
async function storedCase(services: Services, guildId: string, callerId: string, action: 'note' | 'warn'): Promise<number> {
  const row = await recordCase(services, guildId, {
    action,
    targetId: plainMember(services, guildId, callerId),
    targetName: 'member',
    moderatorId: callerId,
    moderatorName: 'caller',
    reason: 'Spam in #general',
    source: 'dashboard',
  });
  return row?.caseNumber ?? 0;
}

/**
 * An open report, stored as it is, since the access matrix asks for one per call and createReport
 * lets a member report the same member once per REPORT_REPEAT_WINDOW_MS.
 */
async function openReport(services: Services, guildId: string, callerId: string): Promise<Record<string, string>> {
  const report = await services.store.models.ModerationReport.create({
    guildId,
    reporterId: callerId,
    reporterName: 'caller',
    targetId: plainMember(services, guildId, callerId),
    targetName: 'member',
    reason: 'Spam in #general',
    channelId: null,
    messageId: null,
    content: null,
    status: 'open',
    caseId: null,
    resolvedById: null,
    resolvedAt: null,
    createdAt: services.clock.now(),
  });
  return { id: String(report.id) };
}

/**
 * A new text channel for the channel tools, where the caller may purge, set slowmode, lock and
 * unlock (an overwrite gives them what Discord asks, whatever their roles) and the bot may too (the
 * demo bot has no Manage Channels of its own), with two of the bot's messages to purge; `locked`: @everyone
 * denied Send Messages already, as if locked by hand.
 */
function toolChannel(options: { locked?: boolean } = {}): RouteFixture {
  return async (services, guildId, callerId) => {
    const control = `${services.meta.oauthBase}/_sandbox`;
    const post = async <T>(path: string, body: unknown) => {
      const response = await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`the sandbox answered ${response.status} to ${path}: ${await response.text()}`);
      return (await response.json()) as T;
    };
    const botId = services.gateway.client?.user?.id ?? '';
    const tools = ['ViewChannel', 'SendMessages', 'ReadMessageHistory', 'ManageMessages', 'ManageChannels', 'ManageRoles'];
    const channel = await post<{ id: string }>(`/guilds/${guildId}/channels`, {
      name: `tools-${unique()}`,
      overwrites: [
        { id: callerId, type: 'member', allow: tools },
        { id: botId, type: 'member', allow: ['ManageChannels'] },
        ...(options.locked ? [{ id: guildId, type: 'role', deny: ['SendMessages'] }] : []),
      ],
    });
    await waitFor(() => services.gateway.client?.channels.cache.has(channel.id), 5000, 'the bot to see the new channel');
    // Posted by the bot: a member's messages would earn XP, written later while other routes are fuzzed.
    const made = services.gateway.client?.channels.cache.get(channel.id);
    if (made?.isSendable() && !options.locked) for (const content of ['spam one', 'spam two']) await made.send(content);
    return { channelId: channel.id };
  };
}

/** A shop item to change or delete. */
async function shopItem(services: Services, guildId: string): Promise<Record<string, string>> {
  const item = await services.store.models.ShopItem.create({
    guildId,
    name: `Sticker ${Date.now()}`,
    description: null,
    price: 5,
    type: 'cosmetic',
    roleId: null,
    icon: null,
    stock: null,
    perMemberLimit: null,
  });
  return { itemId: String(item.id) };
}

/** A fresh message in #general (posted by the bot) and the Member role. */
async function pickRolesMessage(services: Services, guildId: string): Promise<Record<string, string>> {
  const general = channelNamed(services, guildId, 'general');
  const channel = general ? services.gateway.client?.channels.cache.get(general.id) : undefined;
  const posted = channel?.isSendable() ? await channel.send('Pick your roles') : null;
  return { messageId: posted?.id ?? '', channelId: general?.id ?? '', roleId: roleNamed(services, guildId, 'Member')?.id ?? '' };
}

/** A reaction role to change or delete. */
async function reactionRoleEntry(services: Services, guildId: string): Promise<Record<string, string>> {
  const values = await pickRolesMessage(services, guildId);
  const guild = services.gateway.guild(guildId);
  if (!guild) return { id: '0' };
  const entry = await addReactionRole(
    services,
    guild,
    { messageId: values.messageId ?? '', channelId: values.channelId ?? '', emoji: '👍', roleId: values.roleId ?? '', roleName: null },
    { actorId: guild.ownerId, confirmed: [] },
  );
  return { id: String(entry.id) };
}

/** Role menus (issue 25, point 7): #general and the Member role; a posted menu to change or delete. */
function roleMenuPlace(services: Services, guildId: string): Record<string, string> {
  return { channelId: channelNamed(services, guildId, 'general')?.id ?? '', roleId: roleNamed(services, guildId, 'Member')?.id ?? '' };
}
async function postedRoleMenu(services: Services, guildId: string): Promise<Record<string, string>> {
  const { channelId = '', roleId = '' } = roleMenuPlace(services, guildId);
  const guild = services.gateway.guild(guildId);
  if (!guild) return { id: '0', roleId };
  const input = RoleMenuInput.parse({ channelId, title: 'Roles', options: [{ roleId, label: 'Member' }] });
  const menu = await createRoleMenu(services, guildId, input, { actorId: guild.ownerId, confirmed: [] });
  return { id: String(menu.id), roleId };
}

/** An announcement scheduled an hour ahead in #general. */
async function scheduledAnnouncement(services: Services, guildId: string): Promise<Record<string, string>> {
  const guild = services.gateway.guild(guildId);
  const general = channelNamed(services, guildId, 'general');
  if (!guild || !general) return { id: '0' };
  const scheduleTime = new Date(services.clock.ms() + 3_600_000).toISOString();
  const row = await createAnnouncement(
    services,
    guild,
    { title: 'Game night', message: 'Friday at 8', channelId: general.id, priority: 'normal', mentionRoleId: null, scheduleTime },
    { userId: guild.ownerId, name: 'owner' },
  );
  return { id: String(row.id), channelId: general.id };
}

/** A failed grant of a role, stored as the retrier leaves one after a storm (Discord did not answer six times). */
export async function createFailedGrant(
  services: Services,
  fields: { guildId: string; userId: string; memberName: string | null; roleId: string; roleName: string | null; lastError?: string },
) {
  const now = services.clock.now();
  return services.store.models.RoleGrantRetry.create({
    guildId: fields.guildId,
    userId: fields.userId,
    memberName: fields.memberName,
    roleId: fields.roleId,
    roleName: fields.roleName,
    action: 'add',
    source: 'memberRole',
    sourceId: null,
    reason: 'Auto-assign member role',
    attempts: 6,
    nextAttemptAt: null,
    lastError: fields.lastError ?? 'Discord did not answer (503 Service Unavailable). The bot tried 6 times and gave up.',
    status: 'failed',
    claimedUntil: null,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * A failed grant of the Member role to a member of the demo guild without an open one (the matrix
 * asks for a fresh grant on every call), stored as the retrier leaves one.
 */
async function failedRoleGrant(services: Services, guildId: string): Promise<Record<string, string>> {
  const role = roleNamed(services, guildId, 'Member');
  const open = await services.store.models.RoleGrantRetry.findAll({
    where: { guildId, roleId: role?.id ?? '0', status: ['pending', 'failed'] },
    attributes: ['userId'],
  });
  const taken = new Set(open.map((grant) => grant.userId));
  const guild = services.gateway.client?.guilds.cache.get(guildId);
  const member = guild?.members.cache.find((candidate) => !candidate.user.bot && candidate.id !== guild.ownerId && !taken.has(candidate.id));
  const now = services.clock.now();
  // Once every cached member has one, a member who left (the retry drops it): a snowflake of now, numbered.
  const userId = member?.id ?? String(((BigInt(now.getTime()) - 1_420_070_400_000n) << 22n) + BigInt(taken.size));
  const grant = await createFailedGrant(services, {
    guildId,
    userId,
    memberName: member?.displayName ?? null,
    roleId: role?.id ?? '0',
    roleName: role?.name ?? null,
  });
  return { id: String(grant.id) };
}

/** A track row of the guild's library to edit or remove (no file: removing one that is not there is fine). */
async function musicTrack(services: Services, guildId: string) {
  const now = new Date();
  const row = await services.store.models.MusicTrack.create({
    guildId,
    contentHash: randomBytes(32).toString('hex'),
    title: 'Example',
    artist: null,
    album: null,
    durationSeconds: 1,
    format: 'wav',
    sizeBytes: 1000,
    uploadedById: '0',
    uploadedByName: 'example',
    createdAt: now,
    updatedAt: now,
  });
  return { trackId: String(row.id) };
}

/** A saved station to edit or remove, under a name no other has. */
async function musicStation(services: Services, guildId: string) {
  const now = new Date();
  const name = `Station ${randomBytes(4).toString('hex')}`;
  const row = await services.store.models.MusicStation.create({
    guildId,
    name,
    nameKey: name.toLowerCase(),
    url: 'http://93.184.216.34/a.mp3',
    createdAt: now,
    updatedAt: now,
  });
  return { id: String(row.id) };
}

/**
 * Music switched on and a player in the guild's first voice channel, playing a library track with
 * two more waiting (a fresh queue each time): what the player routes act on. `paused` pauses it.
 */
async function musicPlaying(services: Services, guildId: string, callerId: string, paused = false) {
  const guild = services.gateway.guild(guildId);
  const voice = services.gateway.channels(guildId).find((channel) => channel.kind === 'voice');
  if (!guild || !voice) throw new Error('the guild has no voice channel for the music fixture');
  await writeSettings(services, guild, { musicEnabled: true }, { userId: callerId, name: 'fixture' }, { kind: 'update' });
  const player = musicState.of(services).players.get(guildId);
  if (player) await player.serial(() => player.stop());
  const actor = { id: callerId, name: 'fixture', dj: true };
  for (let i = 0; i < 3; i += 1) {
    const track = await addTrack(services, guildId, {
      body: Readable.from([noiseWav(20)]),
      fileName: 'fixture.wav',
      uploader: { userId: callerId, name: 'fixture' },
    });
    await enqueue(services, guildId, actor, await resolveRow(services, guildId, { trackId: track.id }, actor), { channelId: voice.id });
  }
  const playing = musicState.of(services).players.get(guildId);
  if (paused && playing && !playing.paused) await playing.serial(() => playing.pause());
  return { entryId: playing?.queue.next[0]?.id ?? '' };
}

/** Raid mode on (as a moderator would start it, in the store only) or off: what /moderation/raid/end and /start act on. */
async function raidFixture(services: Services, guildId: string, on: boolean): Promise<Record<string, string>> {
  if (on) await claimStart(services, guildId, { trigger: 'manual', startedById: null, startedByName: 'fixture', joinCount: 0, windowSeconds: 0 });
  else await services.store.guild(guildId).RaidState.update({ endedAt: services.clock.now() }, { where: { endedAt: null } });
  return {};
}

/** The fixtures of the guild routes whose examples need one, keyed by the route's method and path as it declares them. */
export const ROUTE_FIXTURES: Record<string, RouteFixture> = {
  'POST /access': async (services, guildId) => ({ roleId: services.gateway.roles(guildId).find((role) => !role.isEveryone && !role.managed)?.id ?? '' }),
  'DELETE /access/:grantId': async (services, guildId) => {
    const role = services.gateway.roles(guildId).find((candidate) => !candidate.isEveryone && !candidate.managed);
    const grant = await services.grants.grant(guildId, { subjectType: 'role', subjectId: role?.id ?? '0', level: 'view', expiresAt: null, createdBy: '0' });
    return { grantId: String(grant.id) };
  },
  'POST /announcements': async (services, guildId) => ({
    channelId: channelNamed(services, guildId, 'announcements')?.id ?? '',
    scheduleTime: new Date(services.clock.ms() + 86_400_000).toISOString(),
  }),
  'PATCH /announcements/:id': scheduledAnnouncement,
  'POST /announcements/:id/cancel': scheduledAnnouncement,
  // Recurring announcements (issue 25, point 8): editing a sent one in place.
  'PATCH /announcements/:id/message': async (services, guildId) => {
    const guild = services.gateway.guild(guildId);
    const general = channelNamed(services, guildId, 'general');
    if (!guild || !general) return { id: '0' };
    const input = { title: 'Game night', message: 'Friday at 8', channelId: general.id, priority: 'normal' as const, mentionRoleId: null, scheduleTime: null };
    const row = await createAnnouncement(services, guild, input, { userId: guild.ownerId, name: 'owner' });
    return { id: String(row.id) };
  },
  'POST /economy/give': async (services, guildId) => ({ userId: services.gateway.guild(guildId)?.ownerId ?? '' }),
  'PUT /shop/:itemId': shopItem,
  'PATCH /shop/:itemId': shopItem,
  'DELETE /shop/:itemId': shopItem,
  'DELETE /users/:userId/inventory/:entryId': async (services, guildId, callerId) => {
    const entry = await services.store.models.UserInventory.create({
      guildId,
      userId: callerId,
      itemId: null,
      itemName: 'Example',
      itemType: 'other',
      quantity: 1,
      acquiredAt: new Date(),
    });
    return { entryId: String(entry.id) };
  },
  'POST /leveling/rewards': async (services, guildId) => {
    const roleId = roleNamed(services, guildId, 'Verified')?.id ?? '';
    await services.store.models.LevelReward.destroy({ where: { guildId, level: 50, roleId } });
    return { roleId };
  },
  'DELETE /leveling/rewards/:id': async (services, guildId) => {
    const roleId = roleNamed(services, guildId, 'Member')?.id ?? '0';
    await services.store.models.LevelReward.destroy({ where: { guildId, level: 51, roleId } });
    const row = await services.store.models.LevelReward.create({ guildId, level: 51, roleId, createdAt: new Date() });
    return { id: String(row.id) };
  },
  'POST /moderation': async (services, guildId, callerId) => ({ memberId: plainMember(services, guildId, callerId) }),
  'GET /moderation/channels/:channelId': toolChannel(),
  'POST /moderation/channels/:channelId/purge': toolChannel(),
  'POST /moderation/channels/:channelId/slowmode': toolChannel(),
  'POST /moderation/channels/:channelId/lock': toolChannel(),
  'POST /moderation/channels/:channelId/unlock': toolChannel({ locked: true }),
  // Try these rules: #general, which the demo's managers can read, and the bot too.
  'POST /moderation/automod/try': async (services, guildId) => ({ channelId: channelNamed(services, guildId, 'general')?.id ?? '' }),
  // Cases as living records: a member's record, a note to edit, a warning to pardon.
  'GET /moderation/members/:userId': async (services, guildId, callerId) => ({ userId: plainMember(services, guildId, callerId) }),
  'PATCH /moderation/cases/:caseNumber': async (services, guildId, callerId) => ({ caseNumber: String(await storedCase(services, guildId, callerId, 'note')) }),
  'POST /moderation/cases/:caseNumber/pardon': async (services, guildId, callerId) => ({
    caseNumber: String(await storedCase(services, guildId, callerId, 'warn')),
  }),
  // Raid mode off before a start and on before an end, in the store only (what each route then acts on).
  'POST /moderation/raid/start': (services, guildId) => raidFixture(services, guildId, false),
  'POST /moderation/raid/end': (services, guildId) => raidFixture(services, guildId, true),
  'POST /moderation/reports/:id/resolve': openReport,
  'POST /moderation/reports/:id/dismiss': openReport,
  'POST /moderation/appeals/:id/accept': openAppeal,
  'POST /moderation/appeals/:id/deny': openAppeal,
  'GET /reaction-roles/messages': async (services, guildId) => ({ channelId: channelNamed(services, guildId, 'general')?.id ?? '' }),
  'POST /reaction-roles': pickRolesMessage,
  'PATCH /reaction-roles/:id': reactionRoleEntry,
  'DELETE /reaction-roles/:id': reactionRoleEntry,
  'POST /role-menus': async (services, guildId) => roleMenuPlace(services, guildId),
  'PATCH /role-menus/:id': postedRoleMenu,
  'DELETE /role-menus/:id': postedRoleMenu,
  'POST /role-grants/:id/retry': failedRoleGrant,
  'DELETE /role-grants/:id': failedRoleGrant,
  'POST /settings/history/:entryId/restore': async (services, guildId) => {
    const entry = await services.settings.history(guildId, 1, 1);
    return { entryId: String(entry.entries.find((row) => row.restorable)?.id ?? 0) };
  },
  'PATCH /music/library/:trackId': musicTrack,
  'DELETE /music/library/:trackId': musicTrack,
  'POST /music/stations': async (services, guildId) => {
    await services.store.models.MusicStation.destroy({ where: { guildId, nameKey: 'example fm' } });
    return {};
  },
  'PATCH /music/stations/:id': musicStation,
  'DELETE /music/stations/:id': musicStation,
  'GET /music/player': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  'POST /music/player/pause': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  'POST /music/player/resume': (services, guildId, callerId) => musicPlaying(services, guildId, callerId, true),
  'POST /music/player/skip': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  'POST /music/player/stop': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  'POST /music/player/shuffle': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  'PUT /music/player/volume': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  'PUT /music/player/loop': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  'POST /music/queue': async (services, guildId, callerId) => {
    const { entryId } = await musicPlaying(services, guildId, callerId);
    const track = await services.store.models.MusicTrack.findOne({ where: { guildId }, order: [['id', 'DESC']] });
    return { entryId, trackId: String(track?.id ?? 0) };
  },
  'POST /music/queue/move': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  'DELETE /music/queue/:entryId': (services, guildId, callerId) => musicPlaying(services, guildId, callerId),
  // Leveling resets with undo, adjustments and imports (issue 25, points 1 and 2): the caller has XP
  // to reset, a backup waits to be restored, the owner is given XP and imported.
  'POST /leveling/reset': async (services, guildId, callerId) => {
    await services.store.models.UserLevel.destroy({ where: { guildId, userId: callerId } });
    await services.store.models.UserLevel.create({ guildId, userId: callerId, username: 'fixture', level: 2, xp: 5, totalXp: 160, messagesCount: 3 });
    return {};
  },
  'POST /leveling/backups/:id/restore': async (services, guildId) => {
    const now = services.clock.ms();
    const row = await services.store.models.LevelBackup.create({
      guildId,
      kind: 'reset-server',
      userId: null,
      summary: 'Fixture reset',
      memberCount: 0,
      snapshot: JSON.stringify({ members: [] }),
      actorId: null,
      actorName: 'fixture',
      createdAt: new Date(now),
      expiresAt: new Date(now + 86_400_000),
      restoredAt: null,
      restoredByName: null,
    });
    return { id: String(row.id) };
  },
  'POST /leveling/adjust': async (services, guildId) => ({ userId: services.gateway.guild(guildId)?.ownerId ?? '' }),
  'POST /leveling/import/preview': async (services, guildId) => ({ content: `user_id,xp\n${services.gateway.guild(guildId)?.ownerId ?? ''},500\n` }),
  'POST /leveling/import': async (services, guildId) => ({ content: `user_id,xp\n${services.gateway.guild(guildId)?.ownerId ?? ''},500\n` }),
  'POST /welcome/test': async (services, guildId) => ({ channelId: channelNamed(services, guildId, 'general')?.id ?? '' }),
  // The welcome card's preview (issue 25, point 5): drawn for the caller, nothing to set up.
  'GET /welcome/card/preview': async () => ({}),
};

/** The key a route's fixture is found by. */
export const routeKey = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

/** Makes what the route's example needs and returns its values (none when it needs nothing). */
export async function routeFixture(route: { method: string; path: string }, services: Services, guildId: string, callerId: string) {
  return (await ROUTE_FIXTURES[routeKey(route)]?.(services, guildId, callerId)) ?? {};
}
