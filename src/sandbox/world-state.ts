// What the sandbox's Discord holds, without what happens to it: users, guilds (with their members,
// channels, roles and bans), the index of channels to guilds, the bot's identity and the event bus
// every change is announced on. The stores (messages.ts, dms.ts, world-structure.ts) and the World
// build on it; it imports none of them, so none of them needs the World.
import { EventEmitter } from 'node:events';
import type { GatewayDispatchPayload } from 'discord-api-types/v10';
import { systemClock, type Clock } from '../core/clock';
import { AttachmentStore } from './attachments';
import { presentUser, type UserSource } from './presenters';
import type { SnowflakeFactory } from './snowflake';
import type { GuildRecord, UserRecord } from './types';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A gateway dispatch before the gateway numbers it (`op` and `s` are added per session). */
export type WorldDispatch = DistributiveOmit<GatewayDispatchPayload, 'op' | 's'>;

/** A dispatch plus the guild it concerns (null for global events). */
export interface WorldEvent {
  guildId: string | null;
  dispatch: WorldDispatch;
}

/** The records of the sandbox's Discord and the bus their changes go out on ('dispatch'). */
export class WorldState implements UserSource {
  /** Every user, by id. */
  readonly users = new Map<string, UserRecord>();
  /** Every guild, by id. */
  readonly guilds = new Map<string, GuildRecord>();
  /** Emits 'dispatch' with a WorldEvent. */
  readonly events = new EventEmitter();
  /** The bot user's id (also the application id, as on Discord). */
  botUserId = '';
  /** The bot's last presence update (gateway op 3): its status and activities (custom status in `state`). */
  botPresence: { status: string; activities: { type: number; name: string; state: string | null }[] } | null = null;
  /** Files members attached to messages and slash commands, served at their `url`. */
  readonly attachments: AttachmentStore;
  private readonly channelGuild = new Map<string, string>();

  /** `snowflakes` makes every id; `botToken` is what the bot must present; `clock` is the world's time. */
  constructor(
    readonly snowflakes: SnowflakeFactory,
    public botToken: string,
    readonly clock: Clock = systemClock,
  ) {
    this.events.setMaxListeners(100);
    this.attachments = new AttachmentStore(() => snowflakes.next());
  }

  /** The application id (the same as the bot user's id). */
  get applicationId(): string {
    return this.botUserId;
  }

  /** The user with that id. */
  getUser(id: string): UserRecord | undefined {
    return this.users.get(id);
  }

  /** Creates a user. */
  addUser(input: Omit<UserRecord, 'id' | 'email' | 'discriminator'> & { id?: string; discriminator?: string }): UserRecord {
    const id = input.id ?? this.snowflakes.next();
    const user: UserRecord = { ...input, id, discriminator: input.discriminator ?? '0', email: `${input.username}@sandbox.test` };
    this.users.set(id, user);
    return user;
  }

  /** Sends a dispatch to every gateway session that may see it. */
  emit(guildId: string | null, dispatch: WorldDispatch): void {
    this.events.emit('dispatch', { guildId, dispatch } satisfies WorldEvent);
  }

  /** Whether the bot is a member of the guild. */
  isBotIn(guildId: string): boolean {
    return this.guilds.get(guildId)?.members.has(this.botUserId) ?? false;
  }

  /** Finds a guild by a channel id in it. */
  guildOfChannel(channelId: string): GuildRecord | undefined {
    const guildId = this.channelGuild.get(channelId);
    return guildId ? this.guilds.get(guildId) : undefined;
  }

  /** Indexes a channel created after its guild. */
  indexChannel(channelId: string, guildId: string): void {
    this.channelGuild.set(channelId, guildId);
  }

  /** Registers a guild and indexes its channels. */
  addGuild(guild: GuildRecord): void {
    this.guilds.set(guild.id, guild);
    for (const channelId of guild.channels.keys()) this.channelGuild.set(channelId, guild.id);
  }

  /** The guild, or an error for code paths that checked already. */
  requireGuild(guildId: string): GuildRecord {
    const guild = this.guilds.get(guildId);
    if (!guild) throw new Error(`unknown guild ${guildId}`);
    return guild;
  }

  /** The bot user as a payload. */
  botUser() {
    const bot = this.users.get(this.botUserId);
    if (!bot) throw new Error('no bot user');
    return presentUser(bot);
  }
}
