// A sandbox Discord in a process of its own, for benchmarks: prints one JSON line with its URLs,
// the bot token and the OAuth2 client once it listens, and runs until killed.
// Env: SANDBOX_MEMBERS (default 300), SANDBOX_RELAXED=1 (rate limits out of reach),
// SANDBOX_REDIRECT_URIS (comma-separated OAuth2 redirect URIs to register, for a product in another process).
import { startSandbox } from '../../src/sandbox';

const memberCount = Number(process.env.SANDBOX_MEMBERS ?? 300);
const redirectUris = (process.env.SANDBOX_REDIRECT_URIS ?? '').split(',').filter(Boolean);
const sandbox = await startSandbox({ port: 0, memberCount, redirectUris, ...(process.env.SANDBOX_RELAXED ? { rateLimits: 'relaxed' as const } : {}) });
process.stdout.write(
  `${JSON.stringify({
    url: sandbox.url,
    apiBase: sandbox.apiBase,
    cdnBase: sandbox.cdnBase,
    gatewayUrl: sandbox.gatewayUrl,
    botToken: sandbox.botToken,
    oauth: { clientId: sandbox.oauth.clientId, clientSecret: sandbox.oauth.clientSecret },
    demo: sandbox.world.demo,
  })}\n`,
);
process.on('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
