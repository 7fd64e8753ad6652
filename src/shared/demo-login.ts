/**
 * The identity the dashboard's /test-auth form offers for the sandbox's mock login
 * (POST /api/auth/mock-login). The sandbox seeds its demo admin with these values, so the
 * default demo login is that admin (Admin of Sandbox Community, owner of a guild without the bot).
 */
export const DEMO_LOGIN_DEFAULTS = {
  username: 'demo_admin',
  id: '935480000000000001',
  discriminator: '0000',
} as const;
