import { randomBytes } from 'node:crypto';
import { Conflict } from './core/errors';
import type { Sandbox } from './sandbox';
import { DemoAccountRefused } from './sandbox/world';
import type { MockLoginInput } from './shared/auth';
import type { DemoSignIn } from './core/demo-sign-in';
import type { DiscordOAuth } from './core/discord-oauth';

/**
 * What else the sandbox calls `id`, in words ("role"), or null when it is no server, role, channel,
 * emoji or message: a user made with that id would share it with the thing, and Discord never
 * gives one id to two things (a member whose id is the server's would be its @everyone role).
 */
function notAUser(world: Sandbox['world'], id: string): string | null {
  if (world.guilds.has(id)) return 'server';
  for (const guild of world.guilds.values()) {
    if (guild.roles.has(id)) return 'role';
    if (guild.channels.has(id)) return 'channel';
    if (guild.emojis.has(id)) return 'emoji';
  }
  if (world.dms.channel(id)) return 'channel';
  if (world.messages.get(id)) return 'message';
  return null;
}

/**
 * The demo login against the sandbox: the demo account (made on first use as an Admin of the
 * demo guild; never an existing sandbox user, nor an id the sandbox gave to anything else)
 * consents on the sandbox's OAuth2 page, and the code is exchanged exactly as a real sign-in's is.
 */
export function createSandboxDemo(sandbox: Sandbox, discord: DiscordOAuth): DemoSignIn {
  return {
    async signIn(input: MockLoginInput) {
      const thing = notAUser(sandbox.world, input.id);
      if (thing) throw new Conflict(`${input.id} is the id of a ${thing} in the sandbox, not of a user. Use another id.`, 'id');
      try {
        sandbox.world.demoAccount(input);
      } catch (error) {
        if (error instanceof DemoAccountRefused) throw new Conflict(error.message, 'id');
        throw error;
      }
      const code = await consent(sandbox, discord, input.id);
      const tokens = await discord.exchangeCode(code);
      const profile = await discord.fetchProfile(tokens.accessToken);
      return { profile, tokens };
    },
  };
}

/** Submits the sandbox consent form as `userId`, as a person clicking their name would; returns the code. */
async function consent(sandbox: Sandbox, discord: DiscordOAuth, userId: string): Promise<string> {
  const authorize = new URL(discord.authorizeUrl(randomBytes(16).toString('base64url')));
  const form = new URLSearchParams(authorize.searchParams);
  form.set('user_id', userId);
  form.set('action', 'authorize');
  const response = await fetch(sandbox.oauth.authorizeUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  const location = response.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`the sandbox consent answered ${response.status} without a code`);
  return code;
}
