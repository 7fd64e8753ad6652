// "Continue with Discord" as a browser does it, through nothing but the dashboard's public origin:
// the login redirect, the sandbox's consent page mounted under that origin, its form, the
// callback, /api/auth/me. Used where the product runs as it ships (a container publishing one port).
import assert from 'node:assert/strict';

/** A browser's cookie jar for one origin: `name=value` pairs, later Set-Cookie headers winning. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Keeps the cookies a response sets (an expired one is dropped). */
  take(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/;\s*expires=Thu, 01 Jan 1970/i.test(header) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The Cookie header to send. */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescapeHtml = (value: string) => value.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/** The first form of a page: its action and every input's name and value (the submit button's included). */
function firstForm(html: string): { action: string; fields: URLSearchParams } {
  const form = /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, 'the consent page has a form');
  const fields = new URLSearchParams();
  for (const input of (form[2] ?? '').matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields.append(unescapeHtml(input[1] ?? ''), unescapeHtml(input[2] ?? ''));
  }
  const button = /<button type="submit" name="([^"]*)" value="([^"]*)"/.exec(form[2] ?? '');
  if (button) fields.append(unescapeHtml(button[1] ?? ''), unescapeHtml(button[2] ?? ''));
  return { action: unescapeHtml(form[1] ?? ''), fields };
}

/** What the sign-in went through, for assertions. */
export interface DashboardSignIn {
  /** The consent page's URL (the login redirect's target). */
  consentUrl: URL;
  /** Where the consent form posted to. */
  formAction: URL;
  /** Where the sandbox sent the browser back to. */
  callbackUrl: URL;
  /** GET /api/auth/me's body. */
  me: Record<string, unknown>;
  /** The Cookie header of the signed-in browser. */
  cookie: string;
}

/**
 * Signs in as the first user the consent page offers (the demo admin) using only `origin`, the
 * dashboard's public origin. Every request a browser would make goes there; the consent form is
 * posted with the Origin and Sec-Fetch-Site headers a browser sends.
 */
export async function signInThroughDashboard(origin: string): Promise<DashboardSignIn> {
  const jar = new CookieJar();
  const login = await fetch(`${origin}/api/auth/discord/login`, { redirect: 'manual' });
  assert.equal(login.status, 302, 'the login redirects to the consent page');
  jar.take(login);
  const consentUrl = new URL(login.headers.get('location') ?? '');
  assert.equal(consentUrl.origin, origin, 'the consent page is under the dashboard origin');

  const page = await fetch(consentUrl);
  assert.equal(page.status, 200, 'the consent page is served');
  const { action, fields } = firstForm(await page.text());
  const formAction = new URL(action, consentUrl);
  assert.equal(formAction.origin, origin, 'the consent form posts to the dashboard origin');

  const consent = await fetch(formAction, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
    body: fields,
    redirect: 'manual',
  });
  assert.equal(consent.status, 302, `the consent is accepted: ${consent.status}`);
  const callbackUrl = new URL(consent.headers.get('location') ?? '');
  assert.equal(`${callbackUrl.origin}${callbackUrl.pathname}`, `${origin}/auth/callback`, 'the sandbox sends the browser back to the dashboard');

  const callback = await fetch(`${origin}/api/auth/discord/callback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin, Cookie: jar.header() },
    body: JSON.stringify({ code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state') }),
  });
  assert.equal(callback.status, 200, `the callback signs in: ${callback.status} ${await callback.clone().text()}`);
  jar.take(callback);

  const meResponse = await fetch(`${origin}/api/auth/me`, { headers: { Cookie: jar.header() } });
  assert.equal(meResponse.status, 200, '/api/auth/me answers the signed-in user');
  const me = (await meResponse.json()) as DashboardSignIn['me'];
  return { consentUrl, formAction, callbackUrl, me, cookie: jar.header() };
}
