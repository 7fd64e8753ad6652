import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import helmet from 'koa-helmet';
import helmetHeaders from 'helmet';

/** Is this request answered with the dashboard's page (index.html)? Every other GET is an asset or the API. */
function isPage(ctx: Context): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  const path = ctx.path.toLowerCase();
  return !(path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/'));
}

/** The headers a helmet middleware that depends on nothing in the request sets, recorded once. */
function fixedHeaders(middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => (failure = error));
  if (failure) throw failure;
  return [...headers];
}

/** The page's style nonce, by response: helmet's directive functions receive the Node response. */
const styleNonces = new WeakMap<object, string>();

/** Where the dashboard loads images from besides itself: Discord's CDN, or the sandbox's. */
export interface SecurityHeaderOptions {
  publicUrl: string;
  /** e.g. https://cdn.discordapp.com, or the sandbox's under the dashboard's own origin (http://localhost:3000/_discord/cdn) */
  cdnBase: string;
}

/**
 * Security headers on every answer (helmet): nosniff, X-Frame-Options DENY, Referrer-Policy
 * strict-origin-when-cross-origin, HSTS when PUBLIC_URL is https, and a Content-Security-Policy.
 * The page's policy allows scripts and styles from our own files only, plus style elements that
 * carry the page's nonce (the UI library's scroll lock adds one); the nonce is made per page and
 * handed to the page by the static middleware (ctx.state.cspNonce). Every other answer (JSON,
 * assets) gets a policy that allows nothing.
 */
export function securityHeaders({ publicUrl, cdnBase }: SecurityHeaderOptions): Middleware {
  const https = publicUrl.startsWith('https://');
  const common = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: true } : false,
  });
  // JSON and assets are never documents: the headers that only steer how a page behaves
  // (DNS prefetch, origin clustering, opener isolation, IE's download and XSS switches, Flash
  // policies) stay off them, so each API answer carries about 250 bytes less. Their headers are the
  // same for every answer, so helmet works them out once and each answer only copies them.
  const lean = fixedHeaders(
    helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
      },
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: true } : false,
    }),
  );
  const page = helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", (_req, res) => `'nonce-${styleNonces.get(res) ?? ''}'`],
      imgSrc: ["'self'", 'data:', new URL(cdnBase).origin],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: https ? [] : null,
    },
  });
  return (ctx, next) => {
    if (!isPage(ctx)) {
      for (const [name, value] of lean) ctx.res.setHeader(name, value);
      return next();
    }
    const nonce = randomBytes(16).toString('base64');
    styleNonces.set(ctx.res, nonce);
    ctx.state.cspNonce = nonce;
    return common(ctx, () => page(ctx, next));
  };
}
