/** Longest redirect path kept; anything longer is not a page of ours. */
const MAX_LENGTH = 2048;
const BASE = 'http://same-origin.invalid';

/**
 * Keeps a post-sign-in redirect on our own origin, for the server (which stores it) and the
 * dashboard (which navigates to it). The input is first normalised as a browser would resolve it
 * (dot segments, percent-encoded dots, backslashes, tabs and newlines), then checked: only a path
 * that stays on this origin *after* normalisation passes ("/.//evil.example" normalises to
 * "//evil.example", which a browser reads as another host). Everything else becomes "/".
 */
export function safeRedirectPath(input: unknown): string {
  if (typeof input !== 'string' || input.length > MAX_LENGTH || !input.startsWith('/')) return '/';
  const path = normalisedPath(input);
  if (path === null || path.startsWith('//') || path.startsWith('/\\')) return '/';
  // What we hand out must resolve on our origin again (the output is a fixed point).
  return normalisedPath(path) === path ? path : '/';
}

/** The path, query and fragment a browser would request for `input` on our origin, or null off it. */
function normalisedPath(input: string): string | null {
  try {
    const url = new URL(input, BASE);
    if (url.origin !== BASE) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}
