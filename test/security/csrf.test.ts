// The CSRF guard must not depend on how a path is spelled: case, repeated slashes, dot
// segments and percent-encoding all reach the same handlers, so a cross-site write must be
// refused whatever the spelling, and the victim's session must survive every attempt.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { signInAs } from '../helpers/product';
import { useHarness } from '../helpers/harness';

/** Spellings of POST /api/auth/logout a router or a proxy might normalise to the real route. */
const SPELLINGS = [
  '/api/auth/logout',
  '/API/auth/logout',
  '/Api/Auth/Logout',
  '/api/AUTH/LOGOUT/',
  '/api/auth/logout/',
  '//api/auth/logout',
  '/api//auth/logout',
  '/api/auth//logout',
  '/api/./auth/logout',
  '/api/x/../auth/logout',
  '/%61pi/auth/logout',
  '/api/auth/%6cogout',
  '/api%2fauth%2flogout',
  '/api/auth/logout?x=1',
  '/api/auth/logout;x=1',
];

const h = useHarness();

describe('cross-site writes are refused whatever the path', () => {
  let victim: Awaited<ReturnType<typeof signInAs>>;
  before(async () => {
    victim = await h().signIn(h().demo.adminUserId);
  });

  for (const method of ['post', 'put', 'patch', 'delete'] as const) {
    test(`${method.toUpperCase()} from another site: 403 for every spelling, and the session survives`, async () => {
      for (const path of SPELLINGS) {
        const response = await victim.agent[method](path).set('Origin', 'https://evil.example').type('form').send('a=1');
        assert.equal(response.status, 403, `${method.toUpperCase()} ${path} answered ${response.status}`);
        const sameSiteOnly = await victim.agent[method](path).set('Sec-Fetch-Site', 'same-site');
        assert.equal(sameSiteOnly.status, 403, `${method.toUpperCase()} ${path} from a sibling subdomain answered ${sameSiteOnly.status}`);
      }
      await victim.get('/api/auth/me').expect(200);
    });
  }

  test('a write without Origin or Sec-Fetch-Site (a non-browser client) is refused too', async () => {
    for (const path of SPELLINGS) {
      const response = await victim.agent.post(path);
      assert.equal(response.status, 403, `POST ${path}`);
    }
    await victim.get('/api/auth/me').expect(200);
  });

  test('routes match one spelling only: same-origin writes to other spellings are 404', async () => {
    for (const path of ['/API/auth/logout', '/api/Auth/logout', '/api/auth/logout/', '//api/auth/logout']) {
      const response = await victim.post(path);
      assert.equal(response.status, 404, `POST ${path} answered ${response.status}`);
    }
    await victim.get('/api/auth/me').expect(200);
    assert.equal((await victim.get('/API/auth/me')).status, 404);
  });
});
