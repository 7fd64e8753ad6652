/** The OAuth2 client secret of the sandbox application (a local fake, never a real secret). */
export const SANDBOX_CLIENT_SECRET = 'sandbox-client-secret';
