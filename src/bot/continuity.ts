// The gateway's events, whole across the connection's gaps. Discord delivers at least once, and a
// connection comes and goes: a RESUME replays what the bot missed (and, from an older sequence,
// what it had handled), a new session (IDENTIFY after the old one expired) replays nothing. Three
// things keep every event a feature depends on reaching it exactly once:
// - discord.js handles member joins, leaves and updates replayed during a RESUME (they arrive
//   before RESUMED, while its shard is not Ready) without emitting them; they are emitted here;
// - a dispatch Discord sends again (a sequence the session had already passed) is recognised, and
//   the product's handlers skip it while discord.js updates its cache as usual;
// - a new session hands what the old one's gap held to `onGap`: the members the bot knew before
//   (discord.js clears its member cache on the new GUILD_CREATE) and when the gap began, so joins,
//   leaves, role changes and messages can be caught up on.
import { Events, Status, type Client, type Guild, type GuildMember, type WebSocketShard } from 'discord.js';
import type { Logger } from '../logger';

/** Member dispatches discord.js drops while its shard resumes or waits for its guilds. */
const MEMBER_DISPATCHES = new Set(['GUILD_MEMBER_ADD', 'GUILD_MEMBER_REMOVE', 'GUILD_MEMBER_UPDATE']);

/** A gateway dispatch as discord.js hands it to Events.Raw and handlePacket (the same object). */
interface Dispatch {
  op: number;
  t: string | null;
  s: number | null;
  d: unknown;
}

/** What the product missed in one guild while a session was being replaced. */
export interface GatewayGap {
  guild: Guild;
  /** The members discord.js held when the new session began (its cache is cleared by GUILD_CREATE). */
  knownMembers: Map<string, GuildMember>;
  /** The product clock's time of the last event handled before the gap. */
  since: number;
  /** Members whose leave or update the new session already delivered (not to be caught up on again). */
  seenLive: Set<string>;
}

/** What GatewayContinuity needs. */
export interface ContinuityOptions {
  /** The product's clock, in ms. */
  now(): number;
  logger: Logger;
  /** Called once per guild after a new session replaced an old one, once its guilds are back. */
  onGap(gap: GatewayGap): Promise<void>;
}

/** discord.js's WebSocketManager with its (private) packet handler. */
type PacketHandling = { handlePacket(packet?: unknown, shard?: WebSocketShard): boolean; status: Status };

/** The guild id of a member dispatch. */
function guildIdOf(dispatch: Dispatch): string | null {
  const data = dispatch.d as { guild_id?: unknown } | null;
  return typeof data?.guild_id === 'string' ? data.guild_id : null;
}

/** The user id of a member dispatch. */
function userIdOf(dispatch: Dispatch): string | null {
  const data = dispatch.d as { user?: { id?: unknown } } | null;
  return typeof data?.user?.id === 'string' ? data.user.id : null;
}

/** Keeps the gateway's events whole across resumes, reconnects and new sessions (see the file's comment). */
export class GatewayContinuity {
  /** True while discord.js handles a dispatch Discord sent again: the product's handlers skip it. */
  replaying = false;
  /** The highest sequence received in each shard's current session. */
  private readonly highest = new Map<number, number>();
  /** Shards that have had a session (a READY after one is a new session replacing it). */
  private readonly hadSession = new Set<number>();
  /** When each shard last received a dispatch (the product clock). */
  private readonly lastDispatchAt = new Map<number, number>();
  /** Dispatches recognised as sent again. */
  private readonly replays = new WeakSet<object>();
  /** Per shard, the gaps of a new session waiting for its guilds. */
  private readonly pending = new Map<number, GatewayGap[]>();
  /** Gaps not yet caught up on: leaves and updates the new session delivers meanwhile are noted in them. */
  private readonly open = new Set<GatewayGap>();

  constructor(
    private readonly client: Client,
    private readonly options: ContinuityOptions,
  ) {
    client.on(Events.Raw, (packet: Dispatch, shardId: number) => this.received(packet, shardId));
    client.on(Events.ShardReady, (shardId) => this.shardReady(shardId));
    const manager = client.ws as unknown as PacketHandling;
    const handle = manager.handlePacket.bind(manager);
    manager.handlePacket = (packet, shard) => this.handle(handle, manager, packet as Dispatch | undefined, shard);
  }

  /** Whether the dispatch being handled now is one the bot had received before. */
  private received(packet: Dispatch, shardId: number): void {
    if (packet.t === 'READY') {
      if (this.hadSession.has(shardId)) this.newSession(shardId);
      this.hadSession.add(shardId);
      this.highest.set(shardId, packet.s ?? 0);
      return;
    }
    if (this.open.size > 0 && packet.t && MEMBER_DISPATCHES.has(packet.t) && packet.t !== 'GUILD_MEMBER_ADD') {
      const guildId = guildIdOf(packet);
      const userId = userIdOf(packet);
      if (userId) for (const gap of this.open) if (gap.guild.id === guildId) gap.seenLive.add(userId);
    }
    if (typeof packet.s !== 'number') return;
    const highest = this.highest.get(shardId) ?? 0;
    if (packet.s <= highest) this.replays.add(packet);
    else {
      this.highest.set(shardId, packet.s);
      this.lastDispatchAt.set(shardId, this.options.now());
    }
  }

  /**
   * Around discord.js's handling of one dispatch (synchronous, so nothing else runs in between):
   * a replayed one runs none of the product's handlers; a member dispatch handled while the
   * manager is ready but the shard is not (a RESUME's replay, a new session's guilds arriving) is
   * handled as on a ready shard, so discord.js emits it.
   */
  private handle(handle: PacketHandling['handlePacket'], manager: PacketHandling, packet: Dispatch | undefined, shard: WebSocketShard | undefined): boolean {
    const lift = Boolean(packet?.t && MEMBER_DISPATCHES.has(packet.t) && shard && manager.status === Status.Ready && shard.status !== Status.Ready);
    const status = shard?.status;
    const wasReplaying = this.replaying;
    this.replaying = packet !== undefined && this.replays.has(packet);
    if (lift && shard) shard.status = Status.Ready;
    try {
      return handle(packet, shard);
    } finally {
      if (lift && shard && status !== undefined) shard.status = status;
      this.replaying = wasReplaying;
    }
  }

  /** A new session replaces the shard's old one: remember what the bot knew of each of its guilds before GUILD_CREATE clears it. */
  private newSession(shardId: number): void {
    const since = this.lastDispatchAt.get(shardId) ?? this.options.now();
    const gaps: GatewayGap[] = [];
    for (const guild of this.client.guilds.cache.values()) {
      if (guild.shardId !== shardId) continue;
      gaps.push({ guild, knownMembers: new Map(guild.members.cache), since, seenLive: new Set() });
    }
    for (const gap of gaps) this.open.add(gap);
    this.pending.set(shardId, gaps);
    this.options.logger.info({ shardId, guilds: gaps.length }, 'gateway: a new session replaces the old one; catching up on its gap once the guilds are back');
  }

  /** The shard has its guilds again: each gap is caught up on, one guild after another. */
  private shardReady(shardId: number): void {
    const gaps = this.pending.get(shardId);
    if (!gaps) return;
    this.pending.delete(shardId);
    void (async () => {
      for (const gap of gaps) {
        // The guild object may have been replaced (a guild deleted and created again).
        const guild = this.client.guilds.cache.get(gap.guild.id);
        try {
          if (guild?.available) await this.options.onGap({ ...gap, guild });
        } catch (error) {
          this.options.logger.error({ err: error, guildId: gap.guild.id }, 'catching up on a gateway gap failed');
        } finally {
          this.open.delete(gap);
        }
      }
    })();
  }
}
