/**
 * Keeps a post-sign-in redirect on our own origin: only a path ("/servers?x=1#y") passes;
 * absolute URLs, protocol-relative "//host" and backslash tricks fall back to "/".
 */
export function safeRedirectPath(input: unknown): string {
  if (typeof input !== 'string' || !input.startsWith('/') || input.startsWith('//') || input.includes('\\')) return '/';
  try {
    const base = 'http://same-origin.invalid';
    const url = new URL(input, base);
    if (url.origin !== base) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}
