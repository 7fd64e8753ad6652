import type { ClientEvents } from 'discord.js';
import type { Command, MessageCommand } from '../bot/command';
import type { RouteSpec } from '../http/route';
import type { FeatureHooks, Services } from './services';

/** A gateway event handler, named for what it does (CountMessageActivity, NotifyMemberJoin). */
export interface Listener<E extends keyof ClientEvents = keyof ClientEvents> {
  event: E;
  name: string;
  run(services: Services, ...args: ClientEvents[E]): unknown;
}

/** Declares a listener; the bot attaches it and logs (never rethrows) what it throws. */
export function listener<E extends keyof ClientEvents>(event: E, name: string, run: (services: Services, ...args: ClientEvents[E]) => unknown): Listener {
  return { event, name, run } as unknown as Listener;
}

/**
 * A feature's state: what it keeps across calls for one running product (a cache, a scheduler, a
 * queue), made once at start by `create` and reached by its routes, commands and listeners through
 * `of(services)`. Features keep no module-level state: two products in one process (tests, a
 * restart) never share a feature's state. Declared in the feature's own state.ts.
 */
export interface FeatureState<S> {
  readonly name: string;
  /** Makes the state for one product, from services made before it (and earlier features' states). */
  readonly create: (services: Services) => S;
  /** This product's state; throws when the feature is not in the product's list. */
  of(services: Pick<Services, 'states'>): S;
}

/** Declares a feature's state slot (see FeatureState). */
export function featureState<S>(name: string, create: (services: Services) => S): FeatureState<S> {
  const slot: FeatureState<S> = { name, create, of: (services) => services.states.get(slot, name) as S };
  return slot;
}

/** Makes every feature's state, in the features' order (main.ts, at start, before any start hook). */
export function makeFeatureStates(services: Services, features: readonly Feature[]): void {
  for (const feature of features) if (feature.state) services.states.put(feature.state, feature.state.create(services));
}

/**
 * A feature's manifest: everything it adds to the product. The HTTP app mounts its routes, the
 * bot registers its commands and attaches its listeners, main.ts makes its state, starts and
 * stops it. See README "Adding a feature" for the folders a feature owns.
 */
export interface Feature extends FeatureHooks {
  routes?: RouteSpec[];
  commands?: Command[];
  /** Commands on a message (Apps -> name), e.g. 'Report message'. */
  messageCommands?: MessageCommand[];
  listeners?: Listener[];
  /** What the feature keeps across calls, made at start (see FeatureState). */
  state?: FeatureState<unknown>;
  /** Runs once the services and every feature's state exist, before the bot logs in. */
  start?(services: Services): void | Promise<void>;
  /** Runs at shutdown, in reverse order, before the store closes. */
  stop?(services: Services): void | Promise<void>;
}
