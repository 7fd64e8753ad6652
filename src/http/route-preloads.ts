// What the page for a deep link should start loading at once (issue 26, point 6). The dashboard's
// pages are lazy chunks: without help the browser learns of the signed-in shell only once the
// entry has run and the session check answered, and of the page's chunk only once the shell has
// run, each level one more round trip on a slow link. The served index.html names them up front
// instead, as <link rel="modulepreload">, from the build's manifest (esbuild.config.mjs writes,
// per entry point and lazy import, its file, CSS and every chunk it imports).
//
// Which page a path shows mirrors the dashboard's route table (web/routes.tsx,
// web/signed-in-routes.tsx): a path it does not know only costs the preloads of a page the
// browser then does not run, never a wrong page.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One manifest entry: a lazy import's (or an entry's) file and the chunks it imports. */
interface ManifestEntry {
  file: string;
  imports: string[];
}

/** The web source module (a manifest key) of the page at `pathname`, for a signed-in or a signed-out visitor. */
export function pageModuleFor(pathname: string, signedIn: boolean): string | undefined {
  const parts = pathname.split('/').filter(Boolean);
  const [first, second, third, fourth] = parts;
  if (first === 'auth' && second === 'callback') return 'web/pages/auth-callback.tsx';
  if (first === 'test-auth') return 'web/pages/test-auth.tsx';
  if (first === 'appeal') return signedIn ? 'web/features/appeals/appeal-page.tsx' : 'web/features/appeals/appeal-sign-in.tsx';
  // Every other path shows the login page to a visitor, which comes with the entry.
  if (!signedIn) return undefined;
  if (parts.length === 0 || first === 'login' || (first === 'dashboard' && parts.length === 1)) return 'web/pages/dashboard.tsx';
  if (parts.length === 1 && (first === 'servers' || first === 'server-management' || first === 'add-bot')) return `web/pages/${first}.tsx`;
  if (first !== 'server') return parts.length === 1 ? 'web/pages/last-server-redirect.tsx' : 'web/pages/not-found.tsx';
  if (parts.length === 2 || (parts.length === 3 && third === 'dashboard')) return 'web/pages/server-dashboard.tsx';
  if (third === 'moderation' && fourth === 'members' && parts.length === 5) return 'web/features/moderation/member-page.tsx';
  if (parts.length === 3 && third && /^[a-z-]+$/.test(third)) return `web/features/${third}/page.tsx`;
  return 'web/pages/not-found.tsx';
}

/**
 * Reads the build's manifest once and answers, for a path, the tags that preload what its page
 * needs beyond what index.html names already: none without a manifest (a build in progress).
 */
export function routePreloads(root: string): (pathname: string, signedIn: boolean) => string {
  const file = path.join(root, 'manifest.json');
  const manifest = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestEntry>) : {};
  const entry = manifest['web/main.tsx'];
  const boot = manifest['web/boot.ts'];
  const inPage = new Set([entry?.file, boot?.file, ...(entry?.imports ?? []), ...(boot?.imports ?? [])]);
  const cache = new Map<string, string>();
  return (pathname, signedIn) => {
    const page = pageModuleFor(pathname, signedIn);
    // A signed-in page shows inside the signed-in routes' chunk; a module the build did not make
    // its own lazy chunk (a feature without a page of its own) is the generic feature page.
    const modules = [signedIn ? 'web/signed-in-routes.tsx' : undefined, page && !manifest[page] ? 'web/pages/feature-page.tsx' : page];
    const key = modules.join(' ');
    const known = cache.get(key);
    if (known !== undefined) return known;
    const chunks = new Set<string>();
    for (const module of modules) {
      const found = module ? manifest[module] : undefined;
      if (!found) continue;
      for (const chunk of [found.file, ...found.imports]) if (!inPage.has(chunk)) chunks.add(chunk);
    }
    // Only scripts: the dashboard's styles are all the entry's (a lazy module's CSS bundle, which
    // esbuild writes since each imports the entry, repeats them).
    const tags = [...chunks].map((href) => `<link rel="modulepreload" href="${href}">`);
    const html = tags.join('\n    ');
    cache.set(key, html);
    return html;
  };
}
