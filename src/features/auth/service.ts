import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { BotGateway } from '../../bot/gateway';
import type { User } from '../../db/models/User';
import type { Store } from '../../db/store';
import type { Logger } from '../../logger';
import { canManageGuild } from '../../shared/discord-urls';
import type { CurrentUser, Server } from '../../shared/auth';
import type { SessionData } from '../../http/session';
import type { SecretBox } from './crypto';
import { DiscordAuthRejected, type DiscordOAuth, type DiscordPartialGuild, type DiscordProfile, type DiscordTokens } from './discord';
import { safeRedirectPath } from './redirect';

/** A sign-in must come back within this time of starting. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** Discord rate-limits /users/@me/guilds; each user's list is reused for this long. */
export const GUILD_LIST_TTL_MS = 60 * 1000;

/** The services sign-in needs. */
export interface AuthServices {
  store: Store;
  discord: DiscordOAuth;
  secrets: SecretBox;
  logger: Logger;
  guildLists: GuildListCache;
}

/** Why a sign-in callback was refused; the route maps each to a status. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: 'bad_state' | 'expired_state' | 'exchange_failed',
    message: string,
  ) {
    super(message);
  }
}

/** Per-user cache of /users/@me/guilds, so the dashboard's pages do not hit Discord's rate limit. */
export class GuildListCache {
  private readonly entries = new Map<number, { at: number; guilds: DiscordPartialGuild[] }>();
  constructor(private readonly ttlMs = GUILD_LIST_TTL_MS) {}

  /** The cached list if still fresh, else loads and caches it. */
  async get(userId: number, load: () => Promise<DiscordPartialGuild[]>): Promise<DiscordPartialGuild[]> {
    const hit = this.entries.get(userId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.guilds;
    const guilds = await load();
    this.entries.set(userId, { at: Date.now(), guilds });
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value ?? userId);
    return guilds;
  }

  /** Forgets a user's list (sign-in, sign-out). */
  forget(userId: number): void {
    this.entries.delete(userId);
  }
}

/** The signed-in user as the dashboard sees it (spec section 3). */
export function presentUser(user: User): CurrentUser {
  return { id: String(user.id), username: user.username, discriminator: user.discriminator, discordId: user.discordId, avatar: user.avatar };
}

/** Starts a sign-in: a fresh single-use state in the session, and the authorize URL carrying it. */
export function beginSignIn(services: Pick<AuthServices, 'discord'>, session: SessionData, redirect: unknown): string {
  const state = randomBytes(32).toString('base64url');
  session.oauth = { state, redirect: safeRedirectPath(redirect), createdAt: Date.now() };
  return services.discord.authorizeUrl(state);
}

/**
 * Checks the state against the session (single use: it is consumed whatever happens), trades the
 * code for tokens, and stores the user. Returns the user and the same-origin path to land on.
 */
export async function completeSignIn(
  services: AuthServices,
  session: SessionData,
  input: { code: string; state: string },
): Promise<{ user: User; redirectTo: string }> {
  const pending = session.oauth;
  session.oauth = undefined;
  if (!pending || !sameSecret(pending.state, input.state)) {
    throw new SignInRefused('bad_state', 'The sign-in request did not match this browser session. Please try again.');
  }
  if (Date.now() - pending.createdAt > OAUTH_STATE_TTL_MS) {
    throw new SignInRefused('expired_state', 'The sign-in took too long. Please try again.');
  }
  let tokens: DiscordTokens;
  let profile: DiscordProfile;
  try {
    tokens = await services.discord.exchangeCode(input.code);
    profile = await services.discord.fetchProfile(tokens.accessToken);
  } catch (error) {
    services.logger.warn({ err: error }, 'OAuth code exchange failed');
    throw new SignInRefused('exchange_failed', 'Discord did not accept the sign-in. Please try again.');
  }
  const user = await saveSignedInUser(services, profile, tokens);
  return { user, redirectTo: pending.redirect };
}

/** Creates or updates the user from their Discord profile, storing the tokens encrypted. */
export async function saveSignedInUser(services: Pick<AuthServices, 'store' | 'secrets' | 'guildLists'>, profile: DiscordProfile, tokens: DiscordTokens): Promise<User> {
  const { User } = services.store.models;
  const values = {
    username: profile.username,
    discriminator: profile.discriminator,
    avatar: profile.avatar,
    accessToken: services.secrets.seal(tokens.accessToken),
    refreshToken: tokens.refreshToken ? services.secrets.seal(tokens.refreshToken) : null,
    tokenExpiresAt: tokens.expiresAt,
  };
  const existing = await User.findOne({ where: { discordId: profile.id } });
  const user = existing ? await existing.update(values) : await User.create({ discordId: profile.id, ...values });
  services.guildLists.forget(user.id);
  return user;
}

/** The user's Discord access token, refreshed first when it has expired. Throws DiscordAuthRejected when gone. */
export async function accessTokenOf(services: Pick<AuthServices, 'discord' | 'secrets'>, user: User): Promise<string> {
  const current = user.accessToken ? services.secrets.open(user.accessToken) : null;
  if (current && user.tokenExpiresAt && user.tokenExpiresAt.getTime() > Date.now() + 60_000) return current;
  const refresh = user.refreshToken ? services.secrets.open(user.refreshToken) : null;
  if (!refresh) throw new DiscordAuthRejected('No Discord token is stored for this user; sign in again.');
  const tokens = await services.discord.refresh(refresh);
  await user.update({
    accessToken: services.secrets.seal(tokens.accessToken),
    refreshToken: tokens.refreshToken ? services.secrets.seal(tokens.refreshToken) : user.refreshToken,
    tokenExpiresAt: tokens.expiresAt,
  });
  return tokens.accessToken;
}

/**
 * The guilds the user can manage (owner, Administrator or Manage Server), from /users/@me/guilds
 * (cached per user), each with the bot's presence and member count from the live gateway.
 */
export async function listManagedServers(services: AuthServices, gateway: BotGateway, user: User): Promise<Server[]> {
  const guilds = await services.guildLists.get(user.id, async () => services.discord.fetchGuilds(await accessTokenOf(services, user)));
  return guilds
    .filter((guild) => canManageGuild(guild.permissions, guild.owner))
    .map((guild) => {
      const live = gateway.guild(guild.id);
      return {
        id: guild.id,
        name: live?.name ?? guild.name,
        icon: live?.icon ?? guild.icon,
        hasBot: live !== null,
        permissions: guild.permissions,
        memberCount: live?.memberCount ?? null,
        owner: guild.owner,
      };
    });
}

/** Signs out: revokes the Discord grant and drops the stored tokens. The caller ends the session. */
export async function signOut(services: AuthServices, user: User): Promise<void> {
  const token = user.accessToken ? services.secrets.open(user.accessToken) : null;
  if (token && !(await services.discord.revoke(token))) services.logger.warn({ userId: user.id }, 'Discord token revocation failed');
  await user.update({ accessToken: null, refreshToken: null, tokenExpiresAt: null });
  services.guildLists.forget(user.id);
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
