// Threads in the sandbox's Discord: public and private threads under a text or announcement
// channel (or started from a message there), their members, what they count, and archiving. A
// thread is a channel of its own id, but Discord computes its permissions from its parent's, so the
// thread keeps no overwrites: the parent's apply, plus membership for private threads.
import {
  AuditLogEvent,
  ChannelType,
  GatewayDispatchEvents,
  MessageFlags,
  PermissionFlagsBits as P,
  type APIAuditLogChange,
  type APIThreadChannel,
  type APIThreadMember,
  type ChannelFlags,
  type ThreadMemberFlags,
} from 'discord-api-types/v10';
import { recordAudit, type ActionContext } from './audit-log';
import { channelPermissions, hasPermission } from './permissions';
import { presentMember } from './presenters';
import type { ChannelRecord, GuildRecord, MessageRecord } from './types';
import type { MessageStore } from './messages';
import type { WorldEvent, WorldState } from './world-state';

/** The kinds of thread: public, private, and the public threads of announcement channels. */
export type ThreadType = ChannelType.PublicThread | ChannelType.PrivateThread | ChannelType.AnnouncementThread;

/** Minutes of inactivity after which a thread archives itself (Discord's four choices). */
export type AutoArchiveDuration = 60 | 1440 | 4320 | 10080;

/** One member of a thread. */
export interface ThreadMemberRecord {
  userId: string;
  joinedAt: string;
}

/** A thread: a channel with a parent, an owner, archive state and members of its own. */
export interface ThreadRecord {
  id: string;
  guildId: string;
  parentId: string;
  ownerId: string;
  name: string;
  type: ThreadType;
  archived: boolean;
  locked: boolean;
  /** Private threads only: whether members who cannot Manage Threads may add others. */
  invitable: boolean;
  autoArchiveDuration: AutoArchiveDuration;
  /** When `archived` last changed (Discord sets it at creation too). */
  archiveTimestamp: string;
  createTimestamp: string;
  rateLimitPerUser: number;
  lastMessageId: string | null;
  /** Messages in the thread now (deleted ones not counted). */
  messageCount: number;
  /** Messages ever sent in the thread (deletes do not lower it). */
  totalMessageSent: number;
  /** Members by user id, in joining order. */
  members: Map<string, ThreadMemberRecord>;
}

/** A thread to create; `id` is the message's when it starts from one. */
export interface NewThread {
  parent: ChannelRecord;
  name: string;
  type: ThreadType;
  ownerId: string;
  id?: string;
  autoArchiveDuration?: AutoArchiveDuration | null;
  rateLimitPerUser?: number | null;
  invitable?: boolean | null;
}

/** What can change on a thread (PATCH /channels/{thread}, or sending a message that unarchives it). */
export interface ThreadPatch {
  name?: string;
  archived?: boolean;
  locked?: boolean;
  invitable?: boolean;
  autoArchiveDuration?: AutoArchiveDuration;
  rateLimitPerUser?: number;
}

/** What the thread store needs besides the records: the messages, to drop a deleted thread's. */
export interface ThreadHost extends WorldState {
  readonly messages: Pick<MessageStore, 'forgetChannel' | 'present'>;
}

/** A thread as a member sees it: permissions from its parent, none at all in a private thread they are not in (unless they Manage Threads). */
export function threadPermissions(guild: GuildRecord, parent: ChannelRecord, thread: ThreadRecord, userId: string): bigint {
  const permissions = channelPermissions(guild, parent, userId);
  if (!hasPermission(permissions, P.ViewChannel)) return 0n;
  if (thread.type === ChannelType.PrivateThread && !thread.members.has(userId) && !hasPermission(permissions, P.ManageThreads)) return 0n;
  return permissions;
}

/** Whether a channel can hold threads (text and announcement channels). */
export function canHoldThreads(channel: ChannelRecord): boolean {
  return channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement;
}

/**
 * Every thread of the sandbox, by id. Each change sends what Discord sends: THREAD_CREATE (with
 * `newly_created`), THREAD_UPDATE, THREAD_DELETE, THREAD_MEMBERS_UPDATE for anyone joining or
 * leaving and THREAD_MEMBER_UPDATE for the bot's own membership, and audit entries for what a
 * member did. A thread counts the messages posted in it whatever posted them (a bot, a webhook, a
 * member): it follows MESSAGE_CREATE and MESSAGE_DELETE on the world's bus; as on Discord, a message
 * sent in an archived thread unarchives it first, and its author joins the thread.
 */
export class ThreadStore {
  private readonly byId = new Map<string, ThreadRecord>();

  /** The store listens to the world's dispatches from the start (before any gateway), so counts are current when a message goes out. */
  constructor(private readonly world: ThreadHost) {
    world.events.on('dispatch', (event: WorldEvent) => this.follow(event));
  }

  /** A thread by id. */
  get(threadId: string): ThreadRecord | undefined {
    return this.byId.get(threadId);
  }

  /** A guild's threads whose parent still exists, oldest first. */
  inGuild(guildId: string): ThreadRecord[] {
    const guild = this.world.guilds.get(guildId);
    return [...this.byId.values()].filter((t) => t.guildId === guildId && guild?.channels.has(t.parentId));
  }

  /** The channel a thread's permissions come from (messages read mentions against it). */
  parentOf(threadId: string): ChannelRecord | undefined {
    const thread = this.byId.get(threadId);
    return thread ? this.world.guilds.get(thread.guildId)?.channels.get(thread.parentId) : undefined;
  }

  /** The thread started from a message, if any (its id is the message's). */
  startedFrom(message: MessageRecord): ThreadRecord | undefined {
    const thread = this.byId.get(message.id);
    return thread && thread.parentId === message.channelId ? thread : undefined;
  }

  /** The thread started from a message, as the message's `thread` shows it. */
  presentStartedFrom(message: MessageRecord): APIThreadChannel | undefined {
    const thread = this.startedFrom(message);
    return thread ? this.present(thread) : undefined;
  }

  /**
   * Creates a thread (THREAD_CREATE with `newly_created`); its creator joins it (THREAD_MEMBERS_UPDATE)
   * and, for a member's action, THREAD_CREATE goes to the audit log. A thread from a message marks the
   * message (MESSAGE_UPDATE with the HasThread flag and `thread`).
   */
  create(input: NewThread, context: ActionContext = {}): ThreadRecord {
    const now = this.world.clock.now().toISOString();
    const thread: ThreadRecord = {
      id: input.id ?? this.world.snowflakes.next(),
      guildId: input.parent.guildId,
      parentId: input.parent.id,
      ownerId: input.ownerId,
      name: input.name,
      type: input.type,
      archived: false,
      locked: false,
      invitable: input.type === ChannelType.PrivateThread ? (input.invitable ?? true) : false,
      autoArchiveDuration: input.autoArchiveDuration ?? 1440,
      archiveTimestamp: now,
      createTimestamp: now,
      rateLimitPerUser: input.rateLimitPerUser ?? 0,
      lastMessageId: null,
      messageCount: 0,
      totalMessageSent: 0,
      members: new Map([[input.ownerId, { userId: input.ownerId, joinedAt: now }]]),
    };
    this.byId.set(thread.id, thread);
    this.world.indexChannel(thread.id, thread.guildId);
    this.world.emit(thread.guildId, { t: GatewayDispatchEvents.ThreadCreate, d: { ...this.present(thread, this.world.botUserId), newly_created: true } });
    this.emitMembers(thread, [input.ownerId], []);
    if (context.actorId) recordAudit(this.world, thread.guildId, AuditLogEvent.ThreadCreate, thread.id, context, this.auditChanges(thread));
    return thread;
  }

  /** Marks the message a thread started from (MESSAGE_UPDATE with HasThread and `thread`). */
  markStarter(message: MessageRecord): void {
    message.flags |= MessageFlags.HasThread;
    this.world.emit(message.guildId, {
      t: GatewayDispatchEvents.MessageUpdate,
      d: { ...this.world.messages.present(message), guild_id: message.guildId, mentions: [] },
    });
  }

  /** A user joins (THREAD_MEMBERS_UPDATE; THREAD_MEMBER_UPDATE too when it is the bot); false if they were in. */
  addMember(thread: ThreadRecord, userId: string): boolean {
    if (thread.members.has(userId)) return false;
    const member: ThreadMemberRecord = { userId, joinedAt: this.world.clock.now().toISOString() };
    thread.members.set(userId, member);
    if (userId === this.world.botUserId) {
      this.world.emit(thread.guildId, { t: GatewayDispatchEvents.ThreadMemberUpdate, d: { ...this.presentMember(thread, member), guild_id: thread.guildId } });
    }
    this.emitMembers(thread, [userId], []);
    return true;
  }

  /** A user leaves or is removed (THREAD_MEMBERS_UPDATE); false if they were not in. */
  removeMember(thread: ThreadRecord, userId: string): boolean {
    if (!thread.members.delete(userId)) return false;
    this.emitMembers(thread, [], [userId]);
    return true;
  }

  /**
   * Changes a thread (THREAD_UPDATE; THREAD_UPDATE in the audit log for a member's action).
   * Archiving or unarchiving moves `archive_timestamp`. For PATCH /channels/{thread}: the caller
   * checks who may (Manage Threads to lock or to unarchive a locked thread).
   */
  update(thread: ThreadRecord, patch: ThreadPatch, context: ActionContext = {}): ThreadRecord {
    const changes: APIAuditLogChange[] = [];
    const change = <K extends keyof ThreadPatch>(field: K, key: string, value: ThreadRecord[K] | undefined) => {
      if (value === undefined || thread[field] === value) return;
      changes.push({ key, old_value: thread[field], new_value: value } as APIAuditLogChange);
      thread[field] = value;
    };
    change('name', 'name', patch.name);
    const archivedBefore = thread.archived;
    change('archived', 'archived', patch.archived);
    change('locked', 'locked', patch.locked);
    change('invitable', 'invitable', thread.type === ChannelType.PrivateThread ? patch.invitable : undefined);
    change('autoArchiveDuration', 'auto_archive_duration', patch.autoArchiveDuration);
    change('rateLimitPerUser', 'rate_limit_per_user', patch.rateLimitPerUser);
    if (thread.archived !== archivedBefore) thread.archiveTimestamp = this.world.clock.now().toISOString();
    if (changes.length === 0) return thread;
    this.world.emit(thread.guildId, { t: GatewayDispatchEvents.ThreadUpdate, d: this.present(thread) });
    if (context.actorId) recordAudit(this.world, thread.guildId, AuditLogEvent.ThreadUpdate, thread.id, context, changes);
    return thread;
  }

  /** Deletes a thread and its messages (THREAD_DELETE; THREAD_DELETE in the audit log for a member's action). */
  delete(thread: ThreadRecord, context: ActionContext = {}): void {
    this.byId.delete(thread.id);
    this.world.messages.forgetChannel(thread.id);
    this.world.emit(thread.guildId, {
      t: GatewayDispatchEvents.ThreadDelete,
      d: { id: thread.id, guild_id: thread.guildId, parent_id: thread.parentId, type: thread.type },
    });
    if (context.actorId) recordAudit(this.world, thread.guildId, AuditLogEvent.ThreadDelete, thread.id, context, this.auditChanges(thread));
  }

  /** The thread as a channel object; with `memberOf`, that user's thread member when they joined (as REST and GUILD_CREATE give the bot's). */
  present(thread: ThreadRecord, memberOf?: string): APIThreadChannel {
    const own = memberOf ? thread.members.get(memberOf) : undefined;
    return {
      id: thread.id,
      type: thread.type,
      guild_id: thread.guildId,
      parent_id: thread.parentId,
      owner_id: thread.ownerId,
      name: thread.name,
      last_message_id: thread.lastMessageId,
      rate_limit_per_user: thread.rateLimitPerUser,
      flags: 0 as ChannelFlags,
      message_count: thread.messageCount,
      member_count: Math.min(thread.members.size, 50),
      total_message_sent: thread.totalMessageSent,
      thread_metadata: {
        archived: thread.archived,
        auto_archive_duration: thread.autoArchiveDuration,
        archive_timestamp: thread.archiveTimestamp,
        locked: thread.locked,
        create_timestamp: thread.createTimestamp,
        ...(thread.type === ChannelType.PrivateThread ? { invitable: thread.invitable } : {}),
      },
      ...(own ? { member: this.presentMember(thread, own) } : {}),
    };
  }

  /** A thread member; `withGuildMember` adds the guild member (`with_member=true`). */
  presentMember(thread: ThreadRecord, member: ThreadMemberRecord, withGuildMember = false): APIThreadMember {
    const guildMember = withGuildMember ? this.world.guilds.get(thread.guildId)?.members.get(member.userId) : undefined;
    return {
      id: thread.id,
      user_id: member.userId,
      join_timestamp: member.joinedAt,
      flags: 0 as ThreadMemberFlags,
      ...(guildMember ? { member: presentMember(this.world, guildMember) } : {}),
    };
  }

  /** The active threads of a guild a user can see, as GUILD_CREATE carries them (the user's member without `id` and `user_id`). */
  presentForGuildCreate(guild: GuildRecord, userId: string): APIThreadChannel[] {
    return this.inGuild(guild.id)
      .filter((thread) => !thread.archived && this.visibleTo(guild, thread, userId))
      .map((thread) => {
        const { member, ...rest } = this.present(thread, userId);
        return member ? { ...rest, member: { join_timestamp: member.join_timestamp, flags: member.flags } } : rest;
      });
  }

  /** Whether a user can see a thread (View Channel on the parent; a private thread's member or a thread manager). */
  visibleTo(guild: GuildRecord, thread: ThreadRecord, userId: string): boolean {
    const parent = guild.channels.get(thread.parentId);
    return parent !== undefined && threadPermissions(guild, parent, thread, userId) !== 0n;
  }

  private emitMembers(thread: ThreadRecord, added: string[], removed: string[]): void {
    this.world.emit(thread.guildId, {
      t: GatewayDispatchEvents.ThreadMembersUpdate,
      d: {
        id: thread.id,
        guild_id: thread.guildId,
        member_count: Math.min(thread.members.size, 50),
        ...(added.length > 0 ? { added_members: added.flatMap((userId) => this.memberWithGuildMember(thread, userId)) } : {}),
        ...(removed.length > 0 ? { removed_member_ids: removed } : {}),
      },
    });
  }

  private memberWithGuildMember(thread: ThreadRecord, userId: string): APIThreadMember[] {
    const member = thread.members.get(userId);
    return member ? [this.presentMember(thread, member, true)] : [];
  }

  private auditChanges(thread: ThreadRecord): APIAuditLogChange[] {
    return [
      { key: 'name', new_value: thread.name },
      { key: 'type', new_value: thread.type },
      { key: 'archived', new_value: thread.archived },
      { key: 'locked', new_value: thread.locked },
      { key: 'auto_archive_duration', new_value: thread.autoArchiveDuration },
      { key: 'rate_limit_per_user', new_value: thread.rateLimitPerUser },
      { key: 'flags', new_value: 0 },
    ] as APIAuditLogChange[];
  }

  /** Counts the messages of threads, and unarchives a thread a message was sent in. */
  private follow({ dispatch }: WorldEvent): void {
    if (dispatch.t === GatewayDispatchEvents.MessageCreate) {
      const thread = this.byId.get(dispatch.d.channel_id);
      if (!thread) return;
      // THREAD_UPDATE and THREAD_MEMBERS_UPDATE go out before the MESSAGE_CREATE that caused them (this listener runs first).
      if (thread.archived && !thread.locked) this.update(thread, { archived: false });
      // Whoever posts in a thread joins it (a webhook is no one's member).
      if (!dispatch.d.webhook_id) this.addMember(thread, dispatch.d.author.id);
      thread.lastMessageId = dispatch.d.id;
      thread.messageCount += 1;
      thread.totalMessageSent += 1;
    } else if (dispatch.t === GatewayDispatchEvents.MessageDelete) {
      const thread = this.byId.get(dispatch.d.channel_id);
      if (thread) thread.messageCount = Math.max(0, thread.messageCount - 1);
    } else if (dispatch.t === GatewayDispatchEvents.MessageDeleteBulk) {
      const thread = this.byId.get(dispatch.d.channel_id);
      if (thread) thread.messageCount = Math.max(0, thread.messageCount - dispatch.d.ids.length);
    }
  }
}
