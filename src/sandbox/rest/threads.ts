import { ChannelType, PermissionFlagsBits as P, RESTJSONErrorCodes, type APIThreadMember } from 'discord-api-types/v10';
import { z } from 'zod';
import { DiscordApiError, invalidChannelType, missingPermissions, unknownChannel, unknownMember } from '../errors';
import { hasPermission } from '../permissions';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';
import { canHoldThreads, threadPermissions, type ThreadRecord, type ThreadType } from '../threads';
import type { ChannelRecord } from '../types';
import type { World } from '../world';
import { botChannel, botGuild, channelMessage, guildMember } from './guards';
import { botThread } from './thread-access';
import { parseDiscordBody } from './validate';

/** 400 160004: the message already started a thread (a thread's id is its message's). */
const threadAlreadyCreated = (): DiscordApiError =>
  new DiscordApiError(400, RESTJSONErrorCodes.ThreadAlreadyCreatedForMessage, 'A thread has already been created for this message');
/** 400 50083: joining, leaving or adding to an archived thread. */
const threadArchived = (): DiscordApiError => new DiscordApiError(400, RESTJSONErrorCodes.InvalidActionOnArchivedThread, 'Thread is archived');

const threadBody = {
  name: z.string().min(1).max(100),
  auto_archive_duration: z.union([z.literal(60), z.literal(1440), z.literal(4320), z.literal(10080)]).nullish(),
  rate_limit_per_user: z.number().int().min(0).max(21600).nullish(),
};
const newThreadSchema = z.looseObject({
  ...threadBody,
  type: z.union([z.literal(ChannelType.AnnouncementThread), z.literal(ChannelType.PublicThread), z.literal(ChannelType.PrivateThread)]).nullish(),
  invitable: z.boolean().nullish(),
});
const threadFromMessageSchema = z.looseObject(threadBody);

/** The channel a thread is made in: an existing text or announcement channel the bot sees (a thread or any other channel is 50024). */
function threadParent(world: World, channelId: string, required: bigint): ChannelRecord {
  if (world.threads.get(channelId)) throw invalidChannelType();
  const { channel } = botChannel(world, channelId, required);
  if (!canHoldThreads(channel)) throw invalidChannelType();
  return channel;
}

/**
 * The type a new thread takes: in an announcement channel, announcement threads only; in a text
 * channel, public or private (private when none is given, Discord's documented default).
 */
function threadTypeIn(parent: ChannelRecord, asked: ThreadType | null | undefined): ThreadType {
  if (parent.type === ChannelType.GuildAnnouncement) {
    if (asked !== undefined && asked !== null && asked !== ChannelType.AnnouncementThread) throw invalidChannelType();
    return ChannelType.AnnouncementThread;
  }
  if (asked === ChannelType.AnnouncementThread) throw invalidChannelType();
  return asked ?? ChannelType.PrivateThread;
}

/** A thread by channel id: 10003 for an unknown channel, 50024 for a channel that is not a thread. */
function requireThread(world: World, channelId: string): ThreadRecord {
  const thread = world.threads.get(channelId);
  if (thread) return thread;
  if (world.guildOfChannel(channelId)?.channels.has(channelId)) throw invalidChannelType();
  throw unknownChannel();
}

const threadPatchSchema = z.looseObject({
  name: threadBody.name.optional(),
  archived: z.boolean().nullish(),
  locked: z.boolean().nullish(),
  invitable: z.boolean().nullish(),
  auto_archive_duration: threadBody.auto_archive_duration,
  rate_limit_per_user: threadBody.rate_limit_per_user,
});

/**
 * `PATCH /channels/{thread}` as Discord rules it: the thread's creator or Manage Threads renames,
 * archives and sets its archive duration; locking, slowmode and (private threads) invitable take
 * Manage Threads; unarchiving an unlocked thread takes only Send Messages in Threads; an archived
 * thread takes no other change until it is unarchived (50083).
 */
export function modifyThread(world: World, thread: ThreadRecord, body: unknown, reason: string | null): ThreadRecord {
  const input = parseDiscordBody(threadPatchSchema, body);
  const bot = world.botUserId;
  const { guild, parent } = botThread(world, thread);
  const held = threadPermissions(guild, parent, thread, bot);
  const manages = hasPermission(held, P.ManageThreads);
  const changes = <T>(asked: T | null | undefined, now: T) => asked !== undefined && asked !== null && asked !== now;
  const unarchiving = input.archived === false && thread.archived;
  const others = changes(input.name, thread.name) || changes(input.auto_archive_duration, thread.autoArchiveDuration) || input.archived === true;
  const managed =
    changes(input.locked, thread.locked) || changes(input.rate_limit_per_user, thread.rateLimitPerUser) || changes(input.invitable, thread.invitable);
  if (managed && !manages) throw missingPermissions();
  if (others && !manages && thread.ownerId !== bot) throw missingPermissions();
  if (unarchiving && thread.locked && !manages) throw missingPermissions();
  if (unarchiving && !hasPermission(held, P.SendMessagesInThreads)) throw missingPermissions();
  if (thread.archived && !unarchiving && (others || managed)) throw threadArchived();
  if (changes(input.invitable, thread.invitable) && thread.type !== ChannelType.PrivateThread) throw invalidChannelType();
  return world.threads.update(
    thread,
    {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.archived !== undefined && input.archived !== null ? { archived: input.archived } : {}),
      ...(input.locked !== undefined && input.locked !== null ? { locked: input.locked } : {}),
      ...(input.invitable !== undefined && input.invitable !== null ? { invitable: input.invitable } : {}),
      ...(input.auto_archive_duration ? { autoArchiveDuration: input.auto_archive_duration } : {}),
      ...(input.rate_limit_per_user !== undefined && input.rate_limit_per_user !== null ? { rateLimitPerUser: input.rate_limit_per_user } : {}),
    },
    { actorId: bot, reason },
  );
}

/** `DELETE /channels/{thread}`: Manage Threads (THREAD_DELETE, THREAD_DELETE in the audit log). */
export function deleteThread(world: World, thread: ThreadRecord, reason: string | null): void {
  botThread(world, thread, P.ManageThreads);
  world.threads.delete(thread, { actorId: world.botUserId, reason });
}

/** Threads: create (with or without a message), members (join, leave, add, remove, list), and the active and archived lists. */
export function registerThreadRoutes(router: Router, services: SandboxServices): void {
  const { world } = services;
  const bot = () => world.botUserId;

  router.add('POST', '/channels/:channelId/threads', 'bot', ({ params, body, reason }) => {
    const input = parseDiscordBody(newThreadSchema, body);
    const channelId = params.channelId ?? '';
    const parent = threadParent(world, channelId, 0n);
    const type = threadTypeIn(parent, input.type);
    botChannel(world, parent.id, type === ChannelType.PrivateThread ? P.CreatePrivateThreads : P.CreatePublicThreads);
    const thread = world.threads.create(
      {
        parent,
        name: input.name,
        type,
        ownerId: bot(),
        autoArchiveDuration: input.auto_archive_duration,
        rateLimitPerUser: input.rate_limit_per_user,
        invitable: input.invitable,
      },
      { actorId: bot(), reason },
    );
    return ok(world.threads.present(thread, bot()), 201);
  });

  router.add('POST', '/channels/:channelId/messages/:messageId/threads', 'bot', ({ params, body, reason }) => {
    const input = parseDiscordBody(threadFromMessageSchema, body);
    const parent = threadParent(world, params.channelId ?? '', P.CreatePublicThreads);
    const message = channelMessage(world, parent.id, params.messageId ?? '');
    if (world.threads.get(message.id)) throw threadAlreadyCreated();
    const type = parent.type === ChannelType.GuildAnnouncement ? ChannelType.AnnouncementThread : ChannelType.PublicThread;
    const thread = world.threads.create(
      {
        parent,
        id: message.id,
        name: input.name,
        type,
        ownerId: bot(),
        autoArchiveDuration: input.auto_archive_duration,
        rateLimitPerUser: input.rate_limit_per_user,
      },
      { actorId: bot(), reason },
    );
    world.threads.markStarter(message);
    return ok(world.threads.present(thread, bot()), 201);
  });

  router.add('PUT', '/channels/:channelId/thread-members/@me', 'bot', ({ params }) => {
    const thread = requireThread(world, params.channelId ?? '');
    botThread(world, thread);
    if (thread.archived) throw threadArchived();
    world.threads.addMember(thread, bot());
    return noContent();
  });

  router.add('DELETE', '/channels/:channelId/thread-members/@me', 'bot', ({ params }) => {
    const thread = requireThread(world, params.channelId ?? '');
    botThread(world, thread);
    if (thread.archived) throw threadArchived();
    world.threads.removeMember(thread, bot());
    return noContent();
  });

  // Adding someone takes being able to send in the thread; in a private thread that is not invitable, Manage Threads too.
  router.add('PUT', '/channels/:channelId/thread-members/:userId', 'bot', ({ params }) => {
    const thread = requireThread(world, params.channelId ?? '');
    const { guild, parent } = botThread(world, thread, P.SendMessages);
    const manages = hasPermission(threadPermissions(guild, parent, thread, bot()), P.ManageThreads);
    if (thread.type === ChannelType.PrivateThread && !thread.invitable && !manages) throw missingPermissions();
    if (thread.archived) throw threadArchived();
    guildMember(guild, params.userId ?? '');
    world.threads.addMember(thread, params.userId ?? '');
    return noContent();
  });

  // Removing someone takes Manage Threads, or being the creator of the private thread.
  router.add('DELETE', '/channels/:channelId/thread-members/:userId', 'bot', ({ params }) => {
    const thread = requireThread(world, params.channelId ?? '');
    const { guild, parent } = botThread(world, thread);
    const manages = hasPermission(threadPermissions(guild, parent, thread, bot()), P.ManageThreads);
    if (!manages && !(thread.type === ChannelType.PrivateThread && thread.ownerId === bot())) throw missingPermissions();
    if (thread.archived) throw threadArchived();
    world.threads.removeMember(thread, params.userId ?? '');
    return noContent();
  });

  router.add('GET', '/channels/:channelId/thread-members', 'bot', ({ params, query }) => {
    const thread = requireThread(world, params.channelId ?? '');
    botThread(world, thread);
    const withMember = query.get('with_member') === 'true';
    let members = [...thread.members.values()].sort((a, b) => (BigInt(a.userId) < BigInt(b.userId) ? -1 : 1));
    // Discord pages the list only when it carries guild members.
    if (withMember) {
      const after = query.get('after');
      if (after) members = members.filter((m) => BigInt(m.userId) > BigInt(after));
      members = members.slice(0, Number(query.get('limit') ?? 100));
    }
    return ok(members.map((m) => world.threads.presentMember(thread, m, withMember)));
  });

  router.add('GET', '/channels/:channelId/thread-members/:userId', 'bot', ({ params, query }) => {
    const thread = requireThread(world, params.channelId ?? '');
    botThread(world, thread);
    const member = thread.members.get(params.userId ?? '');
    if (!member) throw unknownMember();
    return ok(world.threads.presentMember(thread, member, query.get('with_member') === 'true'));
  });

  router.add('GET', '/guilds/:guildId/threads/active', 'bot', ({ params }) => {
    const guild = botGuild(world, params.guildId ?? '');
    const threads = world.threads
      .inGuild(guild.id)
      .filter((thread) => !thread.archived && world.threads.visibleTo(guild, thread, bot()))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1));
    return ok({ threads: threads.map((t) => world.threads.present(t)), members: ownMembers(world, threads), has_more: false });
  });

  router.add('GET', '/channels/:channelId/threads/archived/public', 'bot', ({ params, query }) => {
    if (world.threads.get(params.channelId ?? '')) throw invalidChannelType();
    const { channel } = botChannel(world, params.channelId ?? '', P.ReadMessageHistory);
    const before = query.get('before');
    const limit = Number(query.get('limit') ?? 50);
    const archived = world.threads
      .inGuild(channel.guildId)
      .filter((t) => t.parentId === channel.id && t.archived && t.type !== ChannelType.PrivateThread)
      .filter((t) => !before || Date.parse(t.archiveTimestamp) < Date.parse(before))
      .sort((a, b) => Date.parse(b.archiveTimestamp) - Date.parse(a.archiveTimestamp));
    const page = archived.slice(0, limit);
    return ok({ threads: page.map((t) => world.threads.present(t)), members: ownMembers(world, page), has_more: archived.length > page.length });
  });
}

/** The bot's thread members of the listed threads (what Discord's thread lists carry as `members`). */
function ownMembers(world: World, threads: ThreadRecord[]): APIThreadMember[] {
  return threads.flatMap((thread) => {
    const own = thread.members.get(world.botUserId);
    return own ? [world.threads.presentMember(thread, own)] : [];
  });
}
