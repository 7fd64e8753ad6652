// Role menus (issue 25, point 7) through the sandbox: POST /role-menus walks 401, 400 (naming the
// field), 403 and 200 and posts a message of buttons; in unique mode a member clicking two options
// in turn ends with only the second role; a member without the menu's required role is refused in
// words; an edit keeps the message's id; a select menu replaces the member's roles of the menu.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DiagnosticsSchema } from '../../src/shared/diagnostics';
import { RoleMenuSchema } from '../../src/shared/role-menus';
import { roleMenuCustomId } from '../../src/shared/role-menus';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildMember } from '../factories';

const h = useHarness();

interface Final {
  content: string;
  ephemeral: boolean;
}

describe('role menus', () => {
  const base = () => `/api/servers/${h().guildId}/role-menus`;
  const admin = () => h().signIn(h().demo.adminUserId);
  const anonymous = (path: string, method: string, body?: unknown) =>
    fetch(`${h().product.url}${path}`, {
      method,
      headers: { Origin: h().product.config.publicUrl, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const roleIds = (userId: string) => h().world.requireGuild(h().guildId).members.get(userId)?.roleIds ?? [];
  const menu = (extra: Record<string, unknown> = {}) => ({
    channelId: h().demo.channels.general,
    title: 'Pick your side',
    description: 'One at a time.',
    colour: '#ff8800',
    style: 'buttons',
    mode: 'unique',
    options: [
      { roleId: h().demo.roles.member, label: 'Member', emoji: '🎮' },
      { roleId: h().demo.roles.verified, label: 'Verified', description: 'Checked in' },
    ],
    ...extra,
  });
  const click = async (messageId: string, userId: string, customId: string, values?: string[]) => {
    const answer = await h().control<Final>('POST', '/interactions/component', {
      channelId: h().demo.channels.general,
      messageId,
      userId,
      customId,
      ...(values ? { values } : {}),
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };

  test('create: 401 signed out, 400 naming the field, 403 for a member, 200 for an admin with the message posted', async () => {
    assert.equal((await anonymous(base(), 'POST', menu())).status, 401);
    const session = await admin();
    const noOptions = await session.post(base(), menu({ options: [] })).expect(400);
    assert.match(JSON.stringify(noOptions.body), /options/);
    const same = await session.post(base(), menu({ options: [menu().options[0], menu().options[0]] })).expect(400);
    assert.match(JSON.stringify(same.body), /different role/);
    await (await h().signIn(h().demo.plainMemberId)).post(base(), menu()).expect(403);
    const created = RoleMenuSchema.parse((await session.post(base(), menu()).expect(200)).body);
    assert.ok(created.messageId);
    const message = h().world.messages.get(created.messageId);
    assert.match(JSON.stringify(message?.components), new RegExp(roleMenuCustomId(created.id, h().demo.roles.verified)));
    const listed = (await session.get(base()).expect(200)).body as unknown[];
    assert.ok(listed.some((row) => RoleMenuSchema.parse(row).id === created.id));
  });

  test('unique: two clicks in turn leave only the second role, answered privately in words', async () => {
    const created = RoleMenuSchema.parse((await (await admin()).post(base(), menu()).expect(200)).body);
    const messageId = created.messageId ?? '';
    const { userId } = await buildMember(h());
    const first = await click(messageId, userId, roleMenuCustomId(created.id, h().demo.roles.member));
    assert.equal(first.ephemeral, true);
    assert.match(first.content, /You now have @/);
    await waitFor(() => roleIds(userId).includes(h().demo.roles.member), 5000, 'the first role');
    const second = await click(messageId, userId, roleMenuCustomId(created.id, h().demo.roles.verified));
    assert.match(second.content, /You now have @.*You no longer have @/);
    await waitFor(() => roleIds(userId).includes(h().demo.roles.verified) && !roleIds(userId).includes(h().demo.roles.member), 5000, 'only the second role');
  });

  test('a member without the required role is refused in words; the edit keeps the message id', async () => {
    const session = await admin();
    const created = RoleMenuSchema.parse((await session.post(base(), menu({ mode: 'normal', requiredRoleId: h().demo.roles.moderator })).expect(200)).body);
    const { userId } = await buildMember(h());
    const refused = await click(created.messageId ?? '', userId, roleMenuCustomId(created.id, h().demo.roles.member));
    assert.match(refused.content, /You need the .+ role to use this menu\./);
    assert.equal(roleIds(userId).includes(h().demo.roles.member), false);
    const edited = RoleMenuSchema.parse((await session.patch(`${base()}/${created.id}`, menu({ channelId: undefined, title: 'Renamed' })).expect(200)).body);
    assert.equal(edited.messageId, created.messageId);
    assert.equal(h().world.messages.get(created.messageId ?? '')?.embeds?.[0]?.title, 'Renamed');
    await session.delete(`${base()}/${created.id}`).expect(204);
  });

  test('a binding menu gives the first pick and refuses any change after it, in words', async () => {
    const created = RoleMenuSchema.parse((await (await admin()).post(base(), menu({ mode: 'binding' })).expect(200)).body);
    const { userId } = await buildMember(h());
    await click(created.messageId ?? '', userId, roleMenuCustomId(created.id, h().demo.roles.member));
    await waitFor(() => roleIds(userId).includes(h().demo.roles.member), 5000, 'the first pick');
    const again = await click(created.messageId ?? '', userId, roleMenuCustomId(created.id, h().demo.roles.verified));
    assert.equal(again.content, 'Your pick in this menu is final: it cannot be changed.');
    assert.equal(roleIds(userId).includes(h().demo.roles.verified), false);
  });

  test('a select menu sets the member roles of the menu to the selection', async () => {
    const created = RoleMenuSchema.parse((await (await admin()).post(base(), menu({ style: 'select', mode: 'normal' })).expect(200)).body);
    const { userId } = await buildMember(h());
    const answer = await click(created.messageId ?? '', userId, roleMenuCustomId(created.id), [h().demo.roles.member, h().demo.roles.verified]);
    assert.match(answer.content, /You now have @.+ and @/);
    await waitFor(() => roleIds(userId).includes(h().demo.roles.verified) && roleIds(userId).includes(h().demo.roles.member), 5000, 'both roles');
  });

  test('a stored menu offering a role the bot cannot give is named in the diagnostics', async () => {
    const now = new Date();
    const options = JSON.stringify([{ roleId: h().demo.roles.aboveBot, label: 'Too high', emoji: null, description: null }]);
    const row = await h().product.services.store.guild(h().guildId).RoleMenu.create({
      channelId: h().demo.channels.general,
      messageId: null,
      title: 'Stale',
      description: null,
      colour: '#000000',
      style: 'buttons',
      mode: 'normal',
      maxRoles: null,
      requiredRoleId: null,
      options,
      createdAt: now,
      updatedAt: now,
    });
    const session = await admin();
    const diagnostics = DiagnosticsSchema.parse((await session.get(`/api/servers/${h().guildId}/diagnostics?feature=reactionRoles`).expect(200)).body);
    assert.ok(
      diagnostics.items.some((item) => item.subject === `roleMenu:${row.id}` && /Too high/.test(item.problem)),
      JSON.stringify(diagnostics.items),
    );
  });
});
