// One harness for tests that drive the whole product through the sandbox: it starts the product
// (sandbox mode, in-memory store) before the file's tests, stops it after, and gives the tests
// the demo world, sign-ins, the control API and waits for what the bot posts.
import { after, before } from 'node:test';
import type { Product, StartOptions } from '../../src/main';
import type { DemoIds, World } from '../../src/sandbox';
import { signInAs, startTestProduct } from './product';
import { waitFor } from './wait';

/** A message as the control API lists it. */
export interface ControlMessage {
  id: string;
  authorId: string;
  bot: boolean;
  content: string;
  embeds: {
    title?: string;
    description?: string;
    color?: number;
    author?: { name: string };
    footer?: { text: string };
    fields?: { name: string; value: string }[];
  }[];
  /** Each emoji (unicode, or `name:id`) and who reacted with it. */
  reactions: { emoji: string; userIds: string[] }[];
  /** Who the message actually pinged. */
  pinged: { users: string[]; roles: string[]; everyone: boolean };
  /** The message this one replies to. */
  replyTo: string | null;
}

/** The control API's answer to an interaction: the bot's final reply, or (status 4xx/5xx) `error` and `message`. */
export interface ControlReply {
  status: number;
  body: { content: string; ephemeral: boolean; embeds: ControlMessage['embeds']; error?: string; message?: string };
}

/** What a test gets from the harness. */
export interface Harness {
  product: Product;
  world: World;
  demo: DemoIds;
  /** The demo guild's id. */
  guildId: string;
  /** Signs a sandbox user in through the real OAuth flow. */
  signIn(userId: string): ReturnType<typeof signInAs>;
  /** Calls the sandbox's control API (JSON in and out). */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** The channel's messages, oldest first (the bot's included). */
  messages(channelId: string): Promise<ControlMessage[]>;
  /** Waits for a message in the channel that passes `match`, posted after the call began unless `since` says otherwise. */
  waitForMessage(channelId: string, match: (message: ControlMessage) => boolean, options?: { timeoutMs?: number }): Promise<ControlMessage>;
  /** Posts as a member and waits for the bot's reply to that message. */
  say(userId: string, content: string, channelId?: string): Promise<ControlMessage>;
  /** Runs a slash command as a member and returns the bot's final reply; an attachment option's value is a file. */
  slash(userId: string, name: string, options?: Record<string, SlashValue>, channelId?: string): Promise<ControlReply>;
  /** Runs a message command (Apps -> name) as a member on a message of the channel and returns the bot's final reply. */
  messageCommand(userId: string, name: string, messageId: string, channelId?: string): Promise<ControlReply>;
}

/** A slash command option's value as the control API takes it: a file for an attachment option. */
export type SlashValue = string | number | boolean | { filename: string; contentType?: string; dataBase64: string };

/** Registers before/after hooks for the file and returns a getter for the harness. */
export function useHarness(env: NodeJS.ProcessEnv = {}, options: Omit<StartOptions, 'logger'> = {}): () => Harness {
  let harness: Harness | undefined;
  before(async () => {
    const product = await startTestProduct(env, options);
    const sandbox = product.sandbox;
    if (!sandbox) throw new Error('the product did not start in sandbox mode');
    const control = async <T>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
        method,
        ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    };
    const messages = async (channelId: string) => (await control<ControlMessage[]>('GET', `/channels/${channelId}/messages`)).body;
    harness = {
      product,
      world: sandbox.world,
      demo: sandbox.world.demo,
      guildId: sandbox.world.demo.guildId,
      signIn: (userId) => signInAs(product, userId),
      control,
      messages,
      waitForMessage(channelId, match, { timeoutMs = 5000 } = {}) {
        // The messages already there, read at once from the sandbox in this process: a snapshot
        // taken over HTTP could land after the awaited reply and hide it.
        const seen = new Set(sandbox.world.messages.list(channelId).map((message) => message.id));
        return waitFor(
          async () => (await messages(channelId)).find((message) => !seen.has(message.id) && match(message)),
          timeoutMs,
          `a matching message in ${channelId}`,
        );
      },
      async say(userId, content, channelId = sandbox.world.demo.channels.general) {
        const posted = await control<ControlMessage>('POST', `/channels/${channelId}/messages`, { authorId: userId, content });
        if (posted.status !== 201) throw new Error(`posting answered ${posted.status}: ${JSON.stringify(posted.body)}`);
        return waitFor(
          async () => (await messages(channelId)).find((message) => message.bot && message.replyTo === posted.body.id),
          5000,
          `the reply to "${content}"`,
        );
      },
      slash: (userId, name, options = {}, channelId = sandbox.world.demo.channels.general) =>
        control('POST', '/interactions', { guildId: sandbox.world.demo.guildId, channelId, userId, name, options }),
      messageCommand: (userId, name, messageId, channelId = sandbox.world.demo.channels.general) =>
        control('POST', '/interactions/message-command', { guildId: sandbox.world.demo.guildId, channelId, userId, name, messageId }),
    };
  });
  // The sandbox enforces Discord's rate limits. discord.js waits out a bucket it knows, but the
  // first request after it learns a route's bucket id can still meet a 429 (as on Discord), which
  // it retries: so the count is not asserted here; test/bot/rate-limits.test.ts checks bursts.
  after(async () => {
    await harness?.product.close();
  });
  return () => {
    if (!harness) throw new Error('the harness did not start');
    return harness;
  };
}
