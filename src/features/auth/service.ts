import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Account } from '../../db/models/account';
import type { Store } from '../../db/store';
import type { Logger } from '../../logger';
import type { AccessRule } from '../../core/access';
import { NotFound } from '../../core/errors';
import { atLeast, type AccessLevel } from '../../shared/access';
import { ADMINISTRATOR, MANAGE_GUILD } from '../../shared/discord-urls';
import type { CurrentUser, Server } from '../../shared/auth';
import type { BotGateway } from '../../bot/gateway';
import type { SecretBox } from '../../core/crypto';
import { DiscordAuthRejected, type DiscordOAuth, type DiscordPartialGuild, type DiscordProfile, type DiscordTokens } from '../../core/discord-oauth';
import { safeRedirectPath } from '../../shared/redirect';

/** A sign-in must come back within this time of starting. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** Discord rate-limits /users/@me/guilds; each user's list is reused for this long. */
export const GUILD_LIST_TTL_MS = 60 * 1000;

/** The pending OAuth sign-in kept in the browser's session. */
export interface PendingSignIn {
  oauth?: { state: string; redirect: string; createdAt: number };
}

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

/** The signed-in account as the dashboard sees it (spec section 3's current user). */
export function presentAccount(account: Account): CurrentUser {
  return { id: String(account.id), username: account.username, discriminator: account.discriminator, discordId: account.userId, avatar: account.avatar };
}

/** Starts a sign-in: a fresh single-use state in the session, and the authorize URL carrying it. */
export function beginSignIn(services: Pick<AuthServices, 'discord'>, session: PendingSignIn, redirect: unknown): string {
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
  session: PendingSignIn,
  input: { code: string; state: string },
): Promise<{ account: Account; redirectTo: string }> {
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
  const account = await saveSignedInAccount(services, profile, tokens);
  return { account, redirectTo: pending.redirect };
}

/** Creates or updates the account from the Discord profile, storing the tokens encrypted. */
export async function saveSignedInAccount(
  services: Pick<AuthServices, 'store' | 'secrets' | 'guildLists'>,
  profile: DiscordProfile,
  tokens: DiscordTokens,
): Promise<Account> {
  const { Account } = services.store.models;
  const values = {
    username: profile.username,
    discriminator: profile.discriminator,
    avatar: profile.avatar,
    accessToken: services.secrets.seal(tokens.accessToken),
    refreshToken: tokens.refreshToken ? services.secrets.seal(tokens.refreshToken) : null,
    tokenExpiresAt: tokens.expiresAt,
  };
  const existing = await Account.findOne({ where: { userId: profile.id } });
  const account = existing ? await existing.update(values) : await Account.create({ userId: profile.id, ...values });
  services.guildLists.forget(account.id);
  return account;
}

/** The user's Discord access token, refreshed first when it has expired. Throws DiscordAuthRejected when gone. */
export async function accessTokenOf(services: Pick<AuthServices, 'discord' | 'secrets'>, user: Account): Promise<string> {
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

/** The access Discord's own guild list implies, for a guild without the bot. */
function listedAccess(permissions: string, owner: boolean): AccessLevel {
  const bits = BigInt(permissions);
  if (owner || (bits & ADMINISTRATOR) === ADMINISTRATOR) return 'admin';
  if ((bits & MANAGE_GUILD) === MANAGE_GUILD) return 'manage';
  return 'member';
}

/** The guilds the user is in, each with the access the dashboard gives them, or null to leave it out. */
async function guildsWithAccess(auth: AuthServices, services: { gateway: BotGateway; access: AccessRule }, account: Account): Promise<Server[]> {
  const guilds = await auth.guildLists.get(account.id, async () => auth.discord.fetchGuilds(await accessTokenOf(auth, account)));
  const servers = await Promise.all(
    guilds.map(async (guild): Promise<Server | null> => {
      const live = services.gateway.guild(guild.id);
      if (!live) {
        const access = listedAccess(guild.permissions, guild.owner);
        return {
          id: guild.id,
          name: guild.name,
          icon: guild.icon,
          hasBot: false,
          permissions: guild.permissions,
          memberCount: null,
          owner: guild.owner,
          access,
        };
      }
      const access = await services.access.of(guild.id, account.userId).catch((error: unknown) => {
        if (error instanceof NotFound) return null;
        throw error;
      });
      if (!access || access.level === 'none') return null;
      return {
        id: guild.id,
        name: live.name,
        icon: live.icon,
        hasBot: true,
        permissions: access.permissions,
        memberCount: live.memberCount,
        owner: access.isOwner,
        access: access.level,
      };
    }),
  );
  return servers.filter((server): server is Server => server !== null);
}

/**
 * The guilds the account may open in the dashboard: those it manages (owner, Administrator or
 * Manage Server) and those it was granted access to. Which guilds the user is in comes from
 * /users/@me/guilds (cached per account: Discord rate-limits it); for a guild with the bot,
 * whether it is listed, the access, permissions and ownership come from the access rule (live
 * gateway data and grants) on every call, so a change in Discord shows at once.
 */
export async function listManagedServers(auth: AuthServices, services: { gateway: BotGateway; access: AccessRule }, account: Account): Promise<Server[]> {
  const servers = await guildsWithAccess(auth, services, account);
  return servers.filter((server) => atLeast(server.access, server.hasBot ? 'view' : 'manage'));
}

/**
 * "Communities you're in": guilds with the bot where the user is a member without dashboard
 * access, each opening their own rank and inventory. Read live like the managed list.
 */
export async function listCommunities(auth: AuthServices, services: { gateway: BotGateway; access: AccessRule }, account: Account): Promise<Server[]> {
  const servers = await guildsWithAccess(auth, services, account);
  return servers.filter((server) => server.hasBot && server.access === 'member');
}

/**
 * Signs this browser out. The Discord grant is revoked only when this was the user's last
 * session, so their other browsers keep working. The caller ends the session itself.
 */
export async function signOut(services: AuthServices, user: Account): Promise<void> {
  const sessions = await services.store.models.Session.count({ where: { accountId: user.id } });
  if (sessions <= 1) await forgetDiscordGrant(services, user);
}

/** Signs the user out of every browser: every session ends and the Discord grant is revoked. */
export async function signOutEverywhere(services: AuthServices, user: Account): Promise<void> {
  await forgetDiscordGrant(services, user);
  await services.store.models.Session.destroy({ where: { accountId: user.id } });
}

/** Revokes the user's Discord grant and drops the stored tokens. */
async function forgetDiscordGrant(services: AuthServices, user: Account): Promise<void> {
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
