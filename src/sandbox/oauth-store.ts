import { randomBytes } from 'node:crypto';

/** Lifetime of an authorization code (Discord: 10 minutes). */
export const CODE_TTL_MS = 10 * 60_000;
/** Lifetime of an access token in seconds (Discord: 7 days). */
export const ACCESS_TOKEN_TTL_S = 7 * 86_400;

interface CodeGrant {
  userId: string;
  scopes: string[];
  redirectUri: string | null;
  expiresAt: number;
}

/** An access token's grant. */
export interface AccessGrant {
  userId: string;
  scopes: string[];
  expiresAt: number;
  refreshToken: string;
}

/** The token answer of `/oauth2/token`, as Discord sends it. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const token = (bytes = 20) => randomBytes(bytes).toString('base64url');

/** Authorization codes, access tokens and refresh tokens of the sandbox's OAuth2 server. */
export class OAuthStore {
  /** Token and code lifetimes follow the world's clock. */
  constructor(private readonly now: () => number = Date.now) {}

  private readonly codes = new Map<string, CodeGrant>();
  private readonly access = new Map<string, AccessGrant>();
  private readonly refresh = new Map<string, { userId: string; scopes: string[]; accessToken: string }>();

  /** Issues a single-use code for a user who consented. */
  issueCode(userId: string, scopes: string[], redirectUri: string | null): string {
    const code = token(15);
    this.codes.set(code, { userId, scopes, redirectUri, expiresAt: this.now() + CODE_TTL_MS });
    return code;
  }

  /** Trades a code for tokens; null when the code is unknown, used, expired or the redirect_uri differs. */
  redeemCode(code: string, redirectUri: string | undefined): TokenResponse | null {
    const grant = this.codes.get(code);
    this.codes.delete(code);
    if (!grant || grant.expiresAt < this.now()) return null;
    if (grant.redirectUri !== null && grant.redirectUri !== redirectUri) return null;
    return this.issueTokens(grant.userId, grant.scopes);
  }

  /** Trades a refresh token for a new pair (the old pair stops working); null if unknown. */
  refreshTokens(refreshToken: string): TokenResponse | null {
    const grant = this.refresh.get(refreshToken);
    if (!grant) return null;
    this.refresh.delete(refreshToken);
    this.access.delete(grant.accessToken);
    return this.issueTokens(grant.userId, grant.scopes);
  }

  /** Revokes an access or refresh token and its partner. */
  revoke(value: string): void {
    const access = this.access.get(value);
    if (access) {
      this.access.delete(value);
      this.refresh.delete(access.refreshToken);
    }
    const refresh = this.refresh.get(value);
    if (refresh) {
      this.refresh.delete(value);
      this.access.delete(refresh.accessToken);
    }
  }

  /** The live grant of an access token, or null. */
  resolve(accessToken: string): AccessGrant | null {
    const grant = this.access.get(accessToken);
    if (!grant || grant.expiresAt < this.now()) return null;
    return grant;
  }

  private issueTokens(userId: string, scopes: string[]): TokenResponse {
    const accessToken = token();
    const refreshToken = token();
    this.access.set(accessToken, { userId, scopes, expiresAt: this.now() + ACCESS_TOKEN_TTL_S * 1000, refreshToken });
    this.refresh.set(refreshToken, { userId, scopes, accessToken });
    return { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_S, refresh_token: refreshToken, scope: scopes.join(' ') };
  }
}
