// Goodbyes and the welcome card through the sandbox: a member leaving is seen off pinging nobody; a
// join's welcome carries the card as a PNG attachment of the card's size (uploaded as Discord takes
// files: multipart); the preview route answers 401, 400 naming the field, 403, then the PNG; the
// settings refuse an unknown placeholder naming the field.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import request from 'supertest';
import { CARD_HEIGHT, CARD_WIDTH } from '../../src/shared/welcome-card';
import { useHarness, type ControlMessage } from '../helpers/harness';
import { buildMember } from '../factories';

const h = useHarness();

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

type WithFiles = ControlMessage & { attachments?: { filename: string; contentType: string | null; url: string; size: number }[] };

describe('goodbye and welcome card', () => {
  const settingsUrl = () => `/api/servers/${h().guildId}/settings`;
  const previewUrl = () => `/api/servers/${h().guildId}/welcome/card/preview`;
  const admin = () => h().signIn(h().demo.adminUserId);

  before(async () => {
    const saved = await (
      await admin()
    ).put(settingsUrl(), {
      welcomeEnabled: true,
      welcomeChannelId: h().demo.channels.welcome,
      welcomeCardEnabled: true,
      welcomeCardTitle: 'Welcome to {server}!',
      goodbyeEnabled: true,
      goodbyeChannelId: h().demo.channels.general,
      // Whatever the admin types, a goodbye pings nobody.
      goodbyeMessage: 'Goodbye {user} ({username}) @everyone <@&' + h().demo.roles.member + '>, {server} has {membercount} members',
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  test('a member leaving posts the goodbye, pinging nobody', async () => {
    const { userId } = await buildMember(h(), { username: 'leaving_lee' });
    const posted = h().waitForMessage(h().demo.channels.general, (message) => message.bot && message.content.includes('leaving_lee'));
    h().world.removeMember(h().guildId, userId);
    const message = await posted;
    assert.match(message.content, new RegExp(`^Goodbye <@${userId}> \\(leaving_lee\\) @everyone`));
    assert.deepEqual(message.pinged, { users: [], roles: [], everyone: false });
  });

  test("a join's welcome carries the card: a PNG of the card's size, uploaded to the channel", async () => {
    let joinedId = '';
    const posted = h().waitForMessage(h().demo.channels.welcome, (message) => message.bot && joinedId !== '' && message.content.includes(joinedId));
    joinedId = h().world.addMember(h().guildId, { username: 'card_carla' }).userId;
    const message = (await posted) as WithFiles;
    const [file] = message.attachments ?? [];
    assert.equal(file?.filename, 'welcome.png');
    assert.equal(file.contentType, 'image/png');
    const bytes = Buffer.from(await (await fetch(file.url)).arrayBuffer());
    assert.equal(bytes.length, file.size);
    assert.deepEqual(pngSize(bytes), { width: CARD_WIDTH, height: CARD_HEIGHT });
  });

  test('settings: an unknown placeholder or a colour that is none is refused naming the field, changing nothing', async () => {
    const session = await admin();
    const bad = await session.put(settingsUrl(), { welcomeCardTitle: 'Hi {usr}' }).expect(400);
    assert.match(JSON.stringify(bad.body), /welcomeCardTitle/);
    assert.match(JSON.stringify(bad.body), /\{usr\} is not a placeholder/);
    const colour = await session.put(settingsUrl(), { welcomeCardAccent: 'red' }).expect(400);
    assert.match(JSON.stringify(colour.body), /welcomeCardAccent/);
    const goodbye = await session.put(settingsUrl(), { goodbyeEnabled: true, goodbyeChannelId: null }).expect(400);
    assert.match(JSON.stringify(goodbye.body), /goodbyeChannelId/);
    const now = await session.get(settingsUrl()).expect(200);
    assert.equal(now.body.welcomeCardTitle, 'Welcome to {server}!');
  });

  test('the preview: 401 signed out, 400 naming the field, 403 for a plain member, then the PNG', async () => {
    await request(h().product.url).get(previewUrl()).expect(401);
    const session = await admin();
    const bad = await session.get(`${previewUrl()}?title=${encodeURIComponent('{nope}')}`).expect(400);
    assert.match(JSON.stringify(bad.body), /title/);
    const member = await h().signIn(h().demo.plainMemberId);
    await member.get(previewUrl()).expect(403);
    const one = await session
      .get(`${previewUrl()}?title=${encodeURIComponent('Hello {username}')}&accent=%23ff0000`)
      .buffer(true)
      .expect(200);
    assert.equal(one.headers['content-type'], 'image/png');
    assert.deepEqual(pngSize(one.body as Buffer), { width: CARD_WIDTH, height: CARD_HEIGHT });
    const two = await session
      .get(`${previewUrl()}?title=${encodeURIComponent('Another title')}&accent=%23ff0000`)
      .buffer(true)
      .expect(200);
    assert.notDeepEqual(two.body, one.body, 'the title changes the image');
  });
});
