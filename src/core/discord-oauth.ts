import { AuthorizationCode, type AccessToken } from 'simple-oauth2';

/** The scopes the dashboard asks for (spec section 1). */
export const OAUTH_SCOPES = ['identify', 'guilds'];

/** Where Discord (or the sandbox) answers OAuth2 and the user's REST calls. */
export interface DiscordOAuthOptions {
  /** Where this server calls the token endpoints and the user's REST: https://discord.com, or the sandbox's URL. */
  host: string;
  /** The consent page browsers are sent to, when not `host`'s /oauth2/authorize: the sandbox's mount on the dashboard's port. */
  authorizeUrl?: string;
  clientId: string;
  clientSecret: string;
  /** PUBLIC_URL + /auth/callback. */
  redirectUri: string;
}

/** A user's Discord tokens, plaintext: only ever held in memory. */
export interface DiscordTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date;
}

/** GET /users/@me, the fields we keep. */
export interface DiscordProfile {
  id: string;
  username: string;
  discriminator: string;
  avatar: string | null;
}

/** One entry of GET /users/@me/guilds. */
export interface DiscordPartialGuild {
  id: string;
  name: string;
  icon: string | null;
  owner: boolean;
  permissions: string;
}

/** Discord refused a token or a code (401 or invalid_grant): the user must sign in again. */
export class DiscordAuthRejected extends Error {
  override name = 'DiscordAuthRejected';
}

/** Discord failed or could not be reached. */
export class DiscordUnavailable extends Error {
  override name = 'DiscordUnavailable';
}

/** The OAuth2 code flow and the user-token REST calls, through simple-oauth2 and fetch. */
export class DiscordOAuth {
  private readonly client: AuthorizationCode;
  private readonly apiBase: string;

  constructor(private readonly options: DiscordOAuthOptions) {
    this.apiBase = `${options.host}/api/v10`;
    const authorize = new URL(options.authorizeUrl ?? `${options.host}/oauth2/authorize`);
    this.client = new AuthorizationCode({
      client: { id: options.clientId, secret: options.clientSecret },
      auth: {
        tokenHost: options.host,
        authorizeHost: authorize.origin,
        tokenPath: '/api/oauth2/token',
        revokePath: '/api/oauth2/token/revoke',
        authorizePath: authorize.pathname,
      },
      options: { authorizationMethod: 'body' },
    });
  }

  /** The authorize page URL for a sign-in bound to `state`. */
  authorizeUrl(state: string): string {
    return this.client.authorizeURL({ redirect_uri: this.options.redirectUri, scope: OAUTH_SCOPES, state });
  }

  /** Trades an authorization code for tokens. */
  async exchangeCode(code: string): Promise<DiscordTokens> {
    return this.tokensOf(await this.call(() => this.client.getToken({ code, redirect_uri: this.options.redirectUri, scope: OAUTH_SCOPES })));
  }

  /** Trades a refresh token for new tokens. */
  async refresh(refreshToken: string): Promise<DiscordTokens> {
    const token = this.client.createToken({ access_token: '', refresh_token: refreshToken, token_type: 'Bearer', expires_in: 0 });
    return this.tokensOf(await this.call(() => token.refresh({ scope: OAUTH_SCOPES })));
  }

  /** Revokes the access token (and with it the grant). Failures are reported, not thrown. */
  async revoke(accessToken: string): Promise<boolean> {
    const token = this.client.createToken({ access_token: accessToken, token_type: 'Bearer' });
    try {
      await token.revoke('access_token');
      return true;
    } catch {
      return false;
    }
  }

  /** GET /users/@me. */
  async fetchProfile(accessToken: string): Promise<DiscordProfile> {
    const user = (await this.get(accessToken, '/users/@me')) as DiscordProfile;
    return { id: user.id, username: user.username, discriminator: user.discriminator ?? '0', avatar: user.avatar ?? null };
  }

  /** GET /users/@me/guilds. */
  async fetchGuilds(accessToken: string): Promise<DiscordPartialGuild[]> {
    const guilds = (await this.get(accessToken, '/users/@me/guilds')) as DiscordPartialGuild[];
    return guilds.map(({ id, name, icon, owner, permissions }) => ({ id, name, icon: icon ?? null, owner: Boolean(owner), permissions: String(permissions) }));
  }

  private async get(accessToken: string, path: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.apiBase}${path}`, { headers: { Authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      throw new DiscordUnavailable(`Discord could not be reached: ${(error as Error).message}`);
    }
    if (response.status === 401) throw new DiscordAuthRejected('Discord rejected the access token.');
    if (!response.ok) throw new DiscordUnavailable(`Discord answered ${response.status} to ${path}.`);
    return response.json();
  }

  private async call(run: () => Promise<AccessToken>): Promise<AccessToken> {
    try {
      return await run();
    } catch (error) {
      const status = (error as { output?: { statusCode?: number } }).output?.statusCode;
      if (status === 400 || status === 401) throw new DiscordAuthRejected('Discord refused the grant.');
      throw new DiscordUnavailable(`Discord's token endpoint failed: ${(error as Error).message}`);
    }
  }

  private tokensOf(token: AccessToken): DiscordTokens {
    const data = token.token as { access_token?: unknown; refresh_token?: unknown; expires_at?: unknown };
    if (typeof data.access_token !== 'string') throw new DiscordUnavailable('Discord returned no access token.');
    return {
      accessToken: data.access_token,
      refreshToken: typeof data.refresh_token === 'string' ? data.refresh_token : null,
      expiresAt: data.expires_at instanceof Date ? data.expires_at : new Date(Date.now() + 3600_000),
    };
  }
}
