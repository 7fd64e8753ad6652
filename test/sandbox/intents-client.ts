// A discord.js client with the intents a test picks (the product's client has a fixed set), and the
// barrier for "that dispatch arrived": its raw packet, which discord.js may not turn into an event
// (a thread it already took from a REST answer is not announced again).
import { once } from 'node:events';
import { Client, Events, type GatewayIntentBits } from 'discord.js';
import type { Sandbox } from '../../src/sandbox';
import type { WorldEvent } from '../../src/sandbox/world-state';
import { checkShapes } from '../helpers/type-shapes';
import { waitForEvent } from './helpers';

/** A raw gateway dispatch as discord.js received it. */
export interface RawDispatch {
  t: string | null;
  d: Record<string, unknown>;
}

/** Logs a discord.js client with `intents` into the sandbox and waits for ready; `received` collects every dispatch from the first (READY, GUILD_CREATE). */
export async function startClientWithIntents(sandbox: Sandbox, intents: GatewayIntentBits[], received?: RawDispatch[]): Promise<Client> {
  const client = new Client({ intents, rest: { api: sandbox.apiBase, cdn: sandbox.cdnBase } });
  if (received) client.on(Events.Raw, (packet: RawDispatch) => received.push(packet));
  const ready = once(client, Events.ClientReady);
  await client.login(sandbox.botToken);
  await ready;
  return client;
}

/** The next dispatch `t` the client receives whose data passes `filter` (start waiting before causing it). */
export async function nextDispatch(client: Client, t: string, filter: (d: Record<string, unknown>) => boolean = () => true): Promise<Record<string, unknown>> {
  const [packet] = await waitForEvent<[RawDispatch]>(client, Events.Raw, (p) => p.t === t && filter(p.d));
  return packet.d;
}

/** Every dispatch the client receives from now on (for "this one never came", read after a later barrier). */
export function recordDispatches(client: Client): RawDispatch[] {
  const seen: RawDispatch[] = [];
  client.on(Events.Raw, (packet: RawDispatch) => seen.push(packet));
  return seen;
}

/** Every dispatch the world sends from now on, before any session's intents (for shape checks). */
export function recordWorldDispatches(sandbox: Sandbox): RawDispatch[] {
  const sent: RawDispatch[] = [];
  sandbox.world.events.on('dispatch', (event: WorldEvent) => sent.push(event.dispatch as unknown as RawDispatch));
  return sent;
}

/** What does not match discord-api-types among `dispatches` (GUILD_MEMBER_ADD is checked as GatewayGuildMemberAddDispatchData); empty when all conform. */
export function dispatchShapeProblems(dispatches: RawDispatch[]): string[] {
  const typeOf = (event: string) => `Gateway${event.toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}DispatchData`;
  return checkShapes(
    'discord-api-types/v10',
    dispatches.map((d, i) => ({ label: `#${i} ${d.t ?? ''}`, type: typeOf(d.t ?? ''), value: d.d })),
  );
}
