import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { cannotGiveRole, compareRoles, dangerousPermissionsOf, dangerousRoleWarning, permissionNames, type RoleActor, type RoleToGive } from './role-rights';

const everyone = { id: '100000000000000000', name: '@everyone', position: 0 };
const helper = { id: '100000000000000010', name: 'Helper', position: 3 };
const role = (name: string, position: number, permissions = 0n, id = `2000000000000000${position}0`): RoleToGive => ({ id, name, position, permissions });
const actor = (permissions: bigint, highestRole = helper, isOwner = false): RoleActor => ({ isOwner, permissions, highestRole });

describe('who may make the bot hand out a role', () => {
  test('the owner and Administrators may hand out any role, whatever its place and permissions', () => {
    const moderator = role('Moderator', 9, P.BanMembers | P.KickMembers);
    assert.equal(cannotGiveRole(actor(0n, everyone, true), moderator), null);
    assert.equal(cannotGiveRole(actor(P.Administrator, everyone), moderator), null);
  });

  test('without Manage Roles nobody else may: Manage Server or a dashboard grant adds nothing', () => {
    const text = cannotGiveRole(actor(P.ManageGuild | P.KickMembers), role('Member', 1));
    assert.equal(text, 'You cannot hand out @Member: giving roles needs the Manage Roles permission in Discord, and you do not have it.');
    assert.match(cannotGiveRole(actor(0n, everyone), role('Member', 1)) ?? '', /needs the Manage Roles permission/);
  });

  test("with Manage Roles only roles strictly below one's highest role, ties broken as Discord does", () => {
    const manager = P.ManageRoles;
    assert.equal(cannotGiveRole(actor(manager), role('Member', 2)), null);
    assert.equal(cannotGiveRole(actor(manager), role('Helper twin', 3, 0n, '100000000000000020')), null, 'a newer role at the same position is below');
    assert.equal(
      cannotGiveRole(actor(manager), role('Admin', 7)),
      'You cannot hand out @Admin: in Discord you can only give roles below your highest role, and your highest role is @Helper.',
    );
  });

  test("a role at the same position created earlier is above; the actor's own role is not below itself", () => {
    assert.ok(compareRoles({ ...helper, id: '100000000000000001' }, helper) > 0, 'older at the same position is higher');
    assert.ok(compareRoles({ ...helper, id: '100000000000000020' }, helper) < 0, 'newer at the same position is lower');
    assert.equal(compareRoles(helper, helper), 0);
    assert.match(cannotGiveRole(actor(P.ManageRoles), role('Helper', 3, 0n, helper.id)) ?? '', /only give roles below your highest role/);
    assert.match(cannotGiveRole(actor(P.ManageRoles), role('Older twin', 3, 0n, '100000000000000001')) ?? '', /only give roles below your highest role/);
    assert.match(cannotGiveRole(actor(P.ManageRoles, everyone), role('Member', 1)) ?? '', /you have no role above @everyone/);
  });

  test('a role carrying a permission the actor lacks is refused, naming the permissions as Discord does', () => {
    const text = cannotGiveRole(actor(P.ManageRoles | P.KickMembers), role('Sheriff', 1, P.KickMembers | P.BanMembers | P.ManageGuild));
    assert.equal(text, 'You cannot hand out @Sheriff: it carries Ban Members and Manage Server, which you do not have yourself.');
    assert.equal(cannotGiveRole(actor(P.ManageRoles | P.KickMembers), role('Bouncer', 1, P.KickMembers)), null);
  });
});

describe('roles with staff permissions', () => {
  test('each dangerous permission is found, others are not', () => {
    for (const bit of [P.Administrator, P.BanMembers, P.KickMembers, P.ManageGuild, P.ManageRoles, P.ManageChannels, P.MentionEveryone]) {
      assert.equal(dangerousPermissionsOf({ permissions: bit | P.SendMessages }), bit);
    }
    assert.equal(dangerousPermissionsOf({ permissions: P.SendMessages | P.AddReactions | P.ModerateMembers }), 0n);
    assert.equal(dangerousRoleWarning(role('Regular', 1, P.SendMessages)), null);
  });

  test('the warning names the role and what it carries', () => {
    assert.equal(
      dangerousRoleWarning(role('Moderator', 5, P.KickMembers | P.BanMembers | P.SendMessages)),
      '@Moderator carries Kick Members and Ban Members: every member who gets it from the bot can use them.',
    );
    assert.deepEqual(permissionNames(P.ManageGuild | P.MentionEveryone), ['Manage Server', 'Mention @everyone, @here and All Roles']);
  });
});
