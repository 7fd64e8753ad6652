// Nobody acts beyond their Discord rights through the bot (issue 20, point 1). Whatever makes the
// bot hand out a role (shop items, the member and verification roles, level rewards, reaction
// roles; through a save, a restore or an import) is accepted only from someone who could give that
// role in Discord: delegated dashboard access and Manage Server add no Discord power. A role with
// staff permissions needs an explicit confirmation, even from the owner. Stored configurations
// that hand such a role out are shown by the diagnostics.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { DiagnosticsSchema } from '../../src/shared/diagnostics';
import { GuildDirectorySchema } from '../../src/shared/servers';
import { SettingsViewSchema } from '../../src/shared/settings';
import { useHarness } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { buildAccount, buildGrant } from '../factories';

const h = useHarness();
const base = () => `/api/servers/${h().guildId}`;
const admin = () => h().signIn(h().demo.adminUserId);

/** A role made in Discord, once the bot has seen it. */
async function buildRole(name: string, permissions: bigint, position: number) {
  const role = h().world.structure.createRole(h().guildId, { name, permissions, position });
  await waitFor(() => h().product.client.guilds.cache.get(h().guildId)?.roles.cache.get(role.id)?.position === position, 5000, `@${name} to reach the bot`);
  return role.id;
}

/** What the store holds that hands roles out: shop items, rewards, reaction roles, the two role settings. */
async function handouts() {
  const { ShopItem, LevelReward, ReactionRole } = h().product.store.models;
  const where = { where: { guildId: h().guildId } };
  const settings = await h().product.services.settings.get(h().guildId);
  return {
    shop: (await ShopItem.findAll(where)).map((item) => item.roleId).filter(Boolean),
    rewards: (await LevelReward.findAll(where)).map((reward) => reward.roleId),
    reactionRoles: (await ReactionRole.findAll(where)).map((entry) => entry.roleId),
    memberRoleId: settings.autoRoleEnabled ? settings.memberRoleId : null,
  };
}

describe("handing out roles through the bot stays within the person's own Discord rights", () => {
  let general: string;
  let messageId: string;
  before(async () => {
    general = h().demo.channels.general;
    const posted = await h().control<{ id: string }>('POST', `/channels/${general}/messages`, { authorId: h().demo.adminUserId, content: 'Pick your roles' });
    messageId = posted.body.id;
  });

  test('a roleless member with delegated edit access cannot make the bot sell, assign or reward @Moderator (403 naming the role; nothing stored)', async () => {
    const editor = await buildAccount(h());
    await buildGrant(h(), { subjectId: editor.userId, level: 'edit' });
    const before = await handouts();
    const moderator = h().demo.roles.moderator;
    const refusals = [
      await editor.session.post(`${base()}/shop`, { name: 'Badge of office', price: 0, type: 'role', roleId: moderator }),
      await editor.session.put(`${base()}/settings`, { autoRoleEnabled: true, memberRoleId: moderator }),
      await editor.session.post(`${base()}/leveling/rewards`, { level: 2, roleId: moderator }),
      await editor.session.post(`${base()}/reaction-roles`, { messageId, channelId: general, emoji: '🛡️', roleId: moderator }),
    ];
    for (const refusal of refusals) {
      assert.equal(refusal.status, 403, JSON.stringify(refusal.body));
      assert.equal(refusal.body.message, 'You cannot hand out @Moderator: giving roles needs the Manage Roles permission in Discord, and you do not have it.');
    }
    // Confirming the danger changes nothing: the rule is about who asks.
    const confirmed = await editor.session.post(`${base()}/shop`, {
      name: 'Badge of office',
      price: 0,
      type: 'role',
      roleId: moderator,
      confirmRoleIds: [moderator],
    });
    assert.equal(confirmed.status, 403);
    assert.deepEqual(await handouts(), before);
  });

  test('a moderator with Manage Server but not Manage Roles cannot hand out even an ordinary role', async () => {
    const moderator = await buildAccount(h(), { roleIds: [h().demo.roles.moderator] });
    const member = h().demo.roles.member;
    const shop = await moderator.session.post(`${base()}/shop`, { name: 'Member pass', price: 5, type: 'role', roleId: member });
    assert.equal(shop.status, 403);
    assert.match(shop.body.message, /^You cannot hand out @Member: giving roles needs the Manage Roles permission/);
    const reward = await moderator.session.post(`${base()}/leveling/rewards`, { level: 3, roleId: member });
    assert.equal(reward.status, 403);
    // Their dashboard access is real: a change without roles goes through.
    await moderator.session.put(`${base()}/settings`, { xpCooldown: 61 }).expect(200);
  });

  test("with Manage Roles: only roles strictly below one's highest role, and none carrying a permission one lacks", async () => {
    const manager = await buildRole('Role Keeper', P.ManageRoles | P.KickMembers, 3);
    const bouncer = await buildRole('Bouncer', P.KickMembers, 2);
    const sheriff = await buildRole('Sheriff', P.BanMembers, 2);
    const keeper = await buildAccount(h(), { roleIds: [manager] });
    await buildGrant(h(), { subjectId: keeper.userId, level: 'edit' });

    const above = await keeper.session.post(`${base()}/leveling/rewards`, { level: 4, roleId: h().demo.roles.moderator });
    assert.equal(above.status, 403);
    assert.equal(
      above.body.message,
      'You cannot hand out @Moderator: in Discord you can only give roles below your highest role, and your highest role is @Role Keeper.',
    );
    const same = await keeper.session.post(`${base()}/leveling/rewards`, { level: 4, roleId: manager });
    assert.equal(same.status, 403, "one's own highest role is not below it");
    const lacking = await keeper.session.post(`${base()}/leveling/rewards`, { level: 4, roleId: sheriff });
    assert.equal(lacking.status, 403);
    assert.equal(lacking.body.message, 'You cannot hand out @Sheriff: it carries Ban Members, which you do not have yourself.');

    // Kick Members is theirs to give, but it is a staff permission: confirmed first.
    const unconfirmed = await keeper.session.post(`${base()}/leveling/rewards`, { level: 4, roleId: bouncer });
    assert.equal(unconfirmed.status, 409);
    assert.equal(unconfirmed.body.error, 'confirmation_required');
    assert.match(
      unconfirmed.body.fields.roleId,
      /^The level 4 reward hands out @Bouncer\. @Bouncer carries Kick Members: every member who gets it from the bot can use them\.$/,
    );
    await keeper.session.post(`${base()}/leveling/rewards`, { level: 4, roleId: bouncer, confirmRoleIds: [bouncer] }).expect(200);
    await keeper.session.post(`${base()}/leveling/rewards`, { level: 5, roleId: h().demo.roles.member }).expect(200);
  });

  test('turning a switch on hands out the role stored behind it: checked against who turns it on', async () => {
    const session = await admin();
    const moderator = h().demo.roles.moderator;
    // The owner's side: an Administrator stores @Moderator as the member role, switched off, confirmed.
    await session.put(`${base()}/settings`, { autoRoleEnabled: false, memberRoleId: moderator, confirmRoleIds: [moderator] }).expect(200);
    const editor = await buildAccount(h());
    await buildGrant(h(), { subjectId: editor.userId, level: 'edit' });
    const on = await editor.session.put(`${base()}/settings`, { autoRoleEnabled: true });
    assert.equal(on.status, 403);
    assert.match(on.body.message, /^You cannot hand out @Moderator/);
    assert.equal((await h().product.services.settings.get(h().guildId)).autoRoleEnabled, false);
    await session.put(`${base()}/settings`, { memberRoleId: null }).expect(200);
  });

  test('a restore or an import is held to the same rule as a save', async () => {
    const session = await admin();
    const moderator = h().demo.roles.moderator;
    await session.put(`${base()}/settings`, { autoRoleEnabled: true, memberRoleId: moderator, confirmRoleIds: [moderator] }).expect(200);
    const history = await session.get(`${base()}/audit-log`).expect(200);
    const entry = (history.body.entries as { id: number; restorable: boolean }[]).find((candidate) => candidate.restorable);
    assert.ok(entry);
    await session.put(`${base()}/settings`, { autoRoleEnabled: false, memberRoleId: null }).expect(200);

    const editor = await buildAccount(h());
    await buildGrant(h(), { subjectId: editor.userId, level: 'edit' });
    const restore = await editor.session.post(`${base()}/settings/history/${entry.id}/restore`, {});
    assert.equal(restore.status, 403, JSON.stringify(restore.body));
    const file = { version: '1.0.0', exportedAt: '2026-01-01T00:00:00.000Z', serverSettings: { autoRoleEnabled: true, memberRoleId: moderator } };
    const preview = await editor.session.post(`${base()}/settings/import`, { file });
    assert.equal(preview.status, 403, 'even the dry run says it would be refused');
    assert.equal((await h().product.services.settings.get(h().guildId)).memberRoleId, null);

    // The owner's side: the restore asks for the confirmation, then goes through.
    const asked = await session.post(`${base()}/settings/history/${entry.id}/restore`, {});
    assert.equal(asked.status, 409);
    assert.match(asked.body.fields.memberRoleId, /@Moderator carries Kick Members, Ban Members and Manage Server/);
    const restored = SettingsViewSchema.parse(
      (await session.post(`${base()}/settings/history/${entry.id}/restore`, { confirmRoleIds: [moderator] }).expect(200)).body,
    );
    assert.equal(restored.memberRoleId, moderator);
    await session.put(`${base()}/settings`, { autoRoleEnabled: false, memberRoleId: null }).expect(200);

    // An import's preview shows what would change; applying it asks for the confirmation.
    const previewed = await session.post(`${base()}/settings/import`, { file });
    assert.equal(previewed.status, 200, JSON.stringify(previewed.body));
    assert.deepEqual(previewed.body.changes.map((change: { field: string }) => change.field).sort(), ['autoRoleEnabled', 'memberRoleId']);
    const applying = await session.post(`${base()}/settings/import`, { file, apply: true });
    assert.equal(applying.status, 409);
    assert.deepEqual(applying.body.confirmRoleIds, [moderator]);
    await session.post(`${base()}/settings/import`, { file, apply: true, confirmRoleIds: [moderator] }).expect(200);
    assert.equal((await h().product.services.settings.get(h().guildId)).memberRoleId, moderator);
    await session.put(`${base()}/settings`, { autoRoleEnabled: false, memberRoleId: null }).expect(200);
  });

  test('even the owner confirms a role with staff permissions; the message names it and what it carries', async () => {
    const owner = await h().signIn(h().demo.ownerUserId);
    const moderator = h().demo.roles.moderator;
    const asked = await owner.post(`${base()}/shop`, { name: 'Deputy', price: 1000, type: 'role', roleId: moderator });
    assert.equal(asked.status, 409);
    assert.equal(
      asked.body.message,
      'The shop item Deputy hands out @Moderator. @Moderator carries Kick Members, Ban Members and Manage Server: every member who gets it from the ' +
        'bot can use them. Confirm that you mean to hand it out.',
    );
    const other = await owner.post(`${base()}/shop`, { name: 'Deputy', price: 1000, type: 'role', roleId: moderator, confirmRoleIds: [h().demo.roles.member] });
    assert.equal(other.status, 409, 'confirming another role confirms nothing');
    await owner.post(`${base()}/shop`, { name: 'Deputy', price: 1000, type: 'role', roleId: moderator, confirmRoleIds: [moderator] }).expect(200);
  });

  test('the diagnostics show stored configurations handing out staff permissions, and the role list says who may hand out what', async () => {
    const { ShopItem } = h().product.store.models;
    // A row stored before the rule existed (by whoever could then).
    const legacy = await ShopItem.create({
      guildId: h().guildId,
      name: 'Old deputy badge',
      description: null,
      price: 0,
      type: 'role',
      roleId: h().demo.roles.moderator,
      icon: null,
      stock: null,
      perMemberLimit: null,
    });
    const session = await admin();
    const diagnostics = DiagnosticsSchema.parse((await session.get(`${base()}/diagnostics?feature=economy`).expect(200)).body);
    const item = diagnostics.items.find((candidate) => candidate.subject === `shopItem:${legacy.id}`);
    assert.ok(item, JSON.stringify(diagnostics.items));
    assert.equal(item.severity, 'warning');
    assert.match(item.problem, /Old deputy badge \(@Moderator\): @Moderator carries Kick Members, Ban Members and Manage Server/);

    const moderatorAccount = await buildAccount(h(), { roleIds: [h().demo.roles.moderator] });
    const directory = GuildDirectorySchema.parse((await moderatorAccount.session.get(`${base()}/directory`).expect(200)).body);
    const moderatorRole = directory.roles.find((role) => role.id === h().demo.roles.moderator);
    assert.deepEqual(moderatorRole?.dangerous, ['Kick Members', 'Ban Members', 'Manage Server']);
    assert.match(moderatorRole?.notYours ?? '', /needs the Manage Roles permission/);
    const adminDirectory = GuildDirectorySchema.parse((await session.get(`${base()}/directory`).expect(200)).body);
    assert.equal(adminDirectory.roles.find((role) => role.id === h().demo.roles.member)?.notYours, null);
  });
});
