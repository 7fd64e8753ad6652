// The invites and links rules on their own: what they catch, what they let through, and how an
// allow list is read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileDomains, hasForeignLink, hasInvite, mayHoldLink } from './links';

const NONE: ReadonlySet<string> = new Set();

test('hasInvite: the invite forms in lowercased text, and the near misses it leaves', () => {
  for (const text of ['discord.gg/a', 'https://discordapp.com/invite/a', 'discord . gg / a', 'discord.gg\\a', 'x discord.com/invite/abc-1'])
    assert.equal(hasInvite(text), true, text);
  // A code needs at least one character; a longer word ending in `discord` is not the host.
  for (const text of ['discord.gg/', 'discord.gg', 'mydiscord.gg/a', 'discord.com/channels/1/2', 'discord.net/invite/a', 'discord gg a', ''])
    assert.equal(hasInvite(text), false, text);
});

test('mayHoldLink: only text with a dot or a scheme is scanned', () => {
  assert.equal(mayHoldLink('hello there'), false);
  assert.equal(mayHoldLink('a.b'), true);
  assert.equal(mayHoldLink('steam://run'), true);
});

test('compileDomains: an allow list as admins type it becomes bare lowercased hosts; blank entries drop out', () => {
  const hosts = compileDomains(['Example.com', '*.tenor.com', 'https://GitHub.com/a/b?c#d', 'host.io:8080', 'trailing.org.', '  ', '', '.lead.net']);
  assert.deepEqual([...hosts].sort(), ['example.com', 'github.com', 'host.io', 'lead.net', 'tenor.com', 'trailing.org']);
  assert.equal(compileDomains([]).size, 0);
});

test('hasForeignLink: a host or its parent on the list is allowed; anything else is foreign', () => {
  const allowed = compileDomains(['example.com']);
  for (const text of ['https://example.com', 'sub.example.com/x', 'http://a.b.example.com:80/y', 'see example.com.'])
    assert.equal(hasForeignLink(text, allowed, false), false, text);
  for (const text of ['https://evil.io', 'evil-example.com', 'example.com.evil.io', 'http://example.com@evil.io', 'ok example.com and evil.io'])
    assert.equal(hasForeignLink(text, allowed, false), true, text);
  // With no list every link is foreign.
  assert.equal(hasForeignLink('example.com', NONE, false), true);
});

test('hasForeignLink: a bare host needs a known TLD; after http(s):// any host counts', () => {
  for (const text of ['notes.md', 'x.com', 'a.xn--p1ai', 'пример.рф']) assert.equal(hasForeignLink(text, NONE, false), true, text);
  for (const text of ['file.unknowntld', 'version 1.2.3', 'e.g. this', 'me@evil.io', 'end.', '.com', 'a..com'])
    assert.equal(hasForeignLink(text, NONE, false), false, text);
  assert.equal(hasForeignLink('http://localhost:3000', NONE, false), true);
  assert.equal(hasForeignLink('https://', NONE, false), false);
  // Other schemes take only what the bare scan sees.
  assert.equal(hasForeignLink('steam://run/1', NONE, false), false);
  assert.equal(hasForeignLink('ftp://evil.io', NONE, false), true);
});

test("hasForeignLink: a domain in a link's path or query is part of that link", () => {
  const allowed = compileDomains(['example.com']);
  assert.equal(hasForeignLink('https://example.com/redirect?to=evil.io', allowed, false), false);
  assert.equal(hasForeignLink('example.com/evil.io', allowed, false), false);
  assert.equal(hasForeignLink('example.com evil.io', allowed, false), true);
});

test('hasForeignLink: invite links are left to the invites rule only while it judges them', () => {
  for (const text of ['discord.gg/abc', 'https://discord.com/invite/abc', 'https://canary.discordapp.com/invite/abc']) {
    assert.equal(hasForeignLink(text, NONE, true), false, `${text} with invites on`);
    assert.equal(hasForeignLink(text, NONE, false), true, `${text} with invites off`);
  }
  // Discord links that are not invites are links either way.
  assert.equal(hasForeignLink('https://discord.com/channels/1/2', NONE, true), true);
});
