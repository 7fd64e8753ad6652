import { Events, type ApplicationCommandData, type Client, type ClientEvents, type Message } from 'discord.js';
import type { Feature, Listener } from '../core/feature';
import type { Services } from '../core/services';
import type { Command, MessageCommand } from './command';
import { GatewayContinuity } from './continuity';
import { catchUpGap, runCatchUps } from './gaps';
import { createInteractionDispatcher } from './interactions';
import { messageCommandJSON } from './message-commands';
import { ReplayGuard } from './replay-guard';
import { slashJSON } from './slash';
import { createTextCommandHandler } from './text-commands';

/** Options for wiring the features' listeners and commands to a client. */
export interface StartBotOptions {
  client: Client;
  token: string;
  services: Services;
  features: readonly Feature[];
  /** Aborted at shutdown: the bot stops handling gateway events (messages, interactions) while the product stops. */
  signal?: AbortSignal;
}

/** An event handler the bot added to the client. */
type Handler = [event: keyof ClientEvents, run: (...args: unknown[]) => void];

/** A listener's handler: what it throws is logged with its name and never stops the bot. */
function handlerOf(services: Services, listener: Listener): Handler {
  const handler = (...args: unknown[]) => {
    try {
      const result = (listener.run as (services: Services, ...rest: unknown[]) => unknown)(services, ...args);
      if (result instanceof Promise) result.catch((error: unknown) => services.logger.error({ err: error, listener: listener.name }, 'listener failed'));
    } catch (error) {
      services.logger.error({ err: error, listener: listener.name }, 'listener failed');
    }
  };
  return [listener.event, handler];
}

/**
 * How a replayed event is recognised, for the events whose handlers must not run twice (a message
 * counted, a text command run, a join welcomed, a /give given): by its id, a join by its time.
 */
const REPLAY_KEYS: Partial<Record<keyof ClientEvents, (first: unknown) => string | null>> = {
  // Snowflakes are unique across every kind of Discord object: the id alone (the string discord.js
  // already holds, so the guard keeps no copy of its own).
  [Events.MessageCreate]: (message) => (message as ClientEvents[Events.MessageCreate][0]).id,
  [Events.InteractionCreate]: (interaction) => (interaction as ClientEvents[Events.InteractionCreate][0]).id,
  [Events.GuildMemberAdd]: (value) => {
    const member = value as ClientEvents[Events.GuildMemberAdd][0];
    return member.joinedTimestamp === null ? null : `join:${member.guild.id}:${member.id}:${member.joinedTimestamp}`;
  },
};

/**
 * Runs the handlers of each event, unless Discord sent the dispatch again (a RESUME from an older
 * sequence: `continuity.replaying`); for the events of REPLAY_KEYS, an event seen before by its
 * key (a message read back after a gap, a join caught up on) runs none of them either.
 */
function guarded(handlers: Handler[], continuity: GatewayContinuity): Handler[] {
  const guard = new ReplayGuard();
  const byEvent = new Map<keyof ClientEvents, Handler[1][]>();
  for (const [event, run] of handlers) byEvent.set(event, [...(byEvent.get(event) ?? []), run]);
  return [...byEvent].flatMap(([event, runs]): Handler[] => {
    const keyOf = REPLAY_KEYS[event];
    if (!keyOf) return runs.map((run): Handler => [event, (...args: unknown[]) => continuity.replaying || run(...args)]);
    return [
      [
        event,
        (...args: unknown[]) => {
          if (continuity.replaying) return;
          const key = keyOf(args[0]);
          if (key !== null && !guard.first(key)) return;
          for (const run of runs) run(...args);
        },
      ],
    ];
  });
}

/**
 * Attaches every feature's listeners and commands (slash, text and message commands), registers
 * the application commands once ready, and logs in. Every event reaches the handlers once across
 * resumes and new sessions (GatewayContinuity, REPLAY_KEYS); the features catch up on each guild
 * at start, when the bot joins it, and after a gap a RESUME could not cover (catchUpGap).
 */
export async function startBot({ client, token, services, features, signal }: StartBotOptions): Promise<void> {
  const logger = services.logger.child({ face: 'bot' });
  const commands = features.flatMap((feature) => feature.commands ?? []);
  const messageCommands = features.flatMap((feature) => feature.messageCommands ?? []);
  const text = createTextCommandHandler(commands, services);
  /** Messages read back after a gap: counted like any other, but a command in them is not run late. */
  const late = new WeakSet<Message>();
  const stopped = () => signal?.aborted === true;
  const continuity = new GatewayContinuity(client, {
    now: () => services.clock.ms(),
    logger,
    onGap: (gap) => (stopped() ? Promise.resolve() : catchUpGap(services, features, client, gap, late)),
  });
  const catchUp = (guild: Parameters<typeof runCatchUps>[2]) => (stopped() ? Promise.resolve() : runCatchUps(services, features, guild));
  const handlers: Handler[] = guarded(
    [
      ...features.flatMap((feature) => (feature.listeners ?? []).map((listener) => handlerOf(services, listener))),
      [Events.InteractionCreate, createInteractionDispatcher(commands, services, messageCommands) as Handler[1]],
      [
        Events.MessageCreate,
        (message) => {
          if (late.has(message as Message)) return;
          void text(message as ClientEvents[Events.MessageCreate][0])?.catch((error: unknown) => logger.error({ err: error }, 'text command handler failed'));
        },
      ],
      // A guild the bot joins is caught up on (joins since it last saw it, reactions to honour).
      [Events.GuildCreate, (guild) => void catchUp(guild as ClientEvents[Events.GuildCreate][0])],
    ],
    continuity,
  );
  for (const [event, run] of handlers) client.on(event, run);
  signal?.addEventListener('abort', () => handlers.forEach(([event, run]) => client.off(event, run)), { once: true });
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.ShardDisconnect, (event) => logger.warn({ code: event.code }, 'gateway disconnected'));
  client.on(Events.ShardResume, () => logger.info('gateway resumed'));
  client.once(Events.ClientReady, (ready) => {
    logger.info({ user: ready.user.tag, guilds: ready.guilds.cache.size }, 'bot ready');
    void (async () => {
      for (const guild of ready.guilds.cache.values()) await catchUp(guild);
    })();
    registerCommands(ready, commands, messageCommands).catch((error: unknown) => logger.error({ err: error }, 'command registration failed'));
  });
  await client.login(token);
}

/**
 * Registers the global application commands (slash commands, type 1, and message commands, type 3),
 * idempotently: the current set is fetched first and the bulk overwrite is only sent when it
 * differs, so restarts do not spend Discord's daily quota.
 */
export async function registerCommands(client: Client<true>, commands: readonly Command[], messageCommands: readonly MessageCommand[] = []): Promise<boolean> {
  const wanted = [...commands.map(slashJSON), ...messageCommands.map(messageCommandJSON)];
  const existing = await client.application.commands.fetch();
  const same =
    existing.size === wanted.length &&
    wanted.every((command) => {
      const current = existing.find((candidate) => candidate.name === command.name && candidate.type === command.type);
      // equals() reads both the camelCase and the raw snake_case shapes; ours is the raw one.
      return current !== undefined && current.equals(command as unknown as ApplicationCommandData, true);
    });
  if (same) return false;
  await client.application.commands.set(wanted);
  return true;
}
