// The sandbox's read-only channel view, where the dashboard's "Open" links lead offline: a
// channel's messages with mentions named and embeds drawn, everything typed escaped.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../../src/sandbox';

describe('channel view', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, memberCount: 10 });
  });
  after(() => sandbox.close());

  it('shows the channel, names mentions, draws embeds and escapes what members typed', async () => {
    const { demo } = sandbox.world;
    const hostile = sandbox.world.messages.create(demo.channels.general, {
      authorId: demo.plainMemberId,
      content: `<script>alert(1)</script> hi <@${demo.adminUserId}>`,
    });
    sandbox.world.messages.create(demo.channels.general, {
      authorId: sandbox.world.botUserId,
      embeds: [{ title: 'Game night', description: 'Friday', color: 0xe74c3c }],
    });
    const response = await fetch(`${sandbox.url}/channels/${demo.guildId}/${demo.channels.general}/${hostile.id}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    const html = await response.text();
    assert.ok(!html.includes('<script>alert(1)</script>'), 'typed HTML is escaped');
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /<span class="mention">@Demo Admin<\/span>/);
    assert.match(html, /<div class="title">Game night<\/div>/);
    assert.match(html, /border-left-color:#e74c3c/);
    assert.match(html, new RegExp(`id="m-${hostile.id}"`));
    assert.equal((await fetch(`${sandbox.url}/channels/1`)).status, 404);
  });
});
