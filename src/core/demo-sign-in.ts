import type { MockLoginInput } from '../shared/auth';
import type { DiscordProfile, DiscordTokens } from './discord-oauth';

/**
 * The demo login (sandbox mode only): makes the mock user an admin of the sandbox's demo guild and
 * signs them in through the sandbox's own OAuth2, so the demo runs the same code paths as a real admin.
 */
export interface DemoSignIn {
  signIn(input: MockLoginInput): Promise<{ profile: DiscordProfile; tokens: DiscordTokens }>;
}
