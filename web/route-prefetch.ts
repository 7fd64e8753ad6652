// Loads a page's code ahead of the click that opens it (issue 26, point 6): the sidebar calls
// prefetchRoute when a link is pointed at, focused or touched, so by the time the click lands the
// page's chunk (and, through the build's preloading of lazy imports, every chunk it imports) is
// on its way or in. The loaders are the ones the router's lazy pages use, so the module the click
// then renders is the one already fetched.
import { FEATURE_PAGE_LOADERS } from './features';
import { GLOBAL_PAGE_LOADERS } from './page-loaders';

/** The loader of the page at `to` (a path the sidebar links to), if it is a lazy page. */
function loaderFor(to: string): (() => Promise<unknown>) | undefined {
  const [first, , slug] = to.split('/').filter(Boolean);
  if (first === 'server') return slug === 'dashboard' ? GLOBAL_PAGE_LOADERS.serverDashboard : slug ? FEATURE_PAGE_LOADERS[slug] : undefined;
  if (first === 'servers') return GLOBAL_PAGE_LOADERS.servers;
  if (first === 'server-management') return GLOBAL_PAGE_LOADERS.serverManagement;
  if (first === 'add-bot') return GLOBAL_PAGE_LOADERS.addBot;
  if (first === 'dashboard') return GLOBAL_PAGE_LOADERS.dashboard;
  return undefined;
}

const asked = new Set<string>();

/** Starts loading the code of the page at `to`, once; a failure is left for the click to show. */
export function prefetchRoute(to: string): void {
  const load = loaderFor(to);
  if (!load || asked.has(to)) return;
  asked.add(to);
  load().catch(() => asked.delete(to));
}
