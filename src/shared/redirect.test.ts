import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { safeRedirectPath } from './redirect';

const ORIGIN = 'https://bot.example.com';

/** Inputs that try to leave the origin; each must come back as '/'. */
const HOSTILE: unknown[] = [
  'https://evil.example/',
  'http://evil.example',
  'HTTPS://evil.example',
  '//evil.example',
  '///evil.example',
  '////evil.example/x',
  '/\\evil.example',
  '\\\\evil.example',
  '/\\/evil.example',
  '/\\\\evil.example',
  '\\/evil.example',
  '/.//evil.example',
  '/././/evil.example',
  '/..//evil.example',
  '/a/..//evil.example',
  '/a/b/../..//evil.example',
  '/%2e%2e//evil.example',
  '/%2e//evil.example',
  '/.%2e//evil.example',
  '/%2E%2E//evil.example',
  '/%2e%2e/%2e%2e//evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '\t//evil.example',
  ' //evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(document.cookie)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'https:/evil.example',
  'http:evil.example',
  'evil.example',
  '',
  `/${'a'.repeat(5000)}`,
  undefined,
  null,
  42,
  {},
  ['//evil.example'],
];

/** Same-origin paths, kept as the browser would resolve them. */
const KEPT: [string, string][] = [
  ['/', '/'],
  ['/servers', '/servers'],
  ['/servers?tab=1#top', '/servers?tab=1#top'],
  ['/server/123/economy', '/server/123/economy'],
  ['/a/../servers', '/servers'],
  ['/./dashboard', '/dashboard'],
  ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ['/%5C%5Cevil.example', '/%5C%5Cevil.example'],
  ['/@evil.example', '/@evil.example'],
  ['/#//evil.example', '/#//evil.example'],
  ['/?next=//evil.example', '/?next=//evil.example'],
  ['/ //evil.example', '/%20//evil.example'],
];

describe('safeRedirectPath', () => {
  for (const input of HOSTILE) {
    test(`refuses ${JSON.stringify(input)?.slice(0, 60)}`, () => {
      assert.equal(safeRedirectPath(input), '/');
    });
  }

  for (const [input, expected] of KEPT) {
    test(`keeps ${JSON.stringify(input)} as ${expected}`, () => {
      const path = safeRedirectPath(input);
      assert.equal(path, expected);
      assert.equal(new URL(path, ORIGIN).origin, ORIGIN, 'a browser resolves it on our origin');
    });
  }

  test('its output is a fixed point: cleaning it again changes nothing', () => {
    for (const input of [...HOSTILE, ...KEPT.map(([value]) => value)]) {
      const once = safeRedirectPath(input);
      assert.equal(safeRedirectPath(once), once);
      assert.equal(new URL(once, ORIGIN).origin, ORIGIN);
    }
  });
});
