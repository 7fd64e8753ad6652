import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { BotGateway, GuildMemberView } from '../bot/gateway';
import { SELF_ONLY } from '../shared/access';
import { createAccessRule, requireSelfOr, type Grant, type GuildAccess } from './access';
import { ManualClock } from './clock';
import { Forbidden, NotFound } from './errors';

function gatewayWith(members: Record<string, GuildMemberView>): BotGateway {
  return {
    member: async (guildId: string, userId: string) => (guildId === 'g' ? (members[userId] ?? { kind: 'not-member' }) : { kind: 'no-bot' }),
  } as unknown as BotGateway;
}

const member = (permissions: bigint, roleIds: string[] = [], isOwner = false): GuildMemberView => ({
  kind: 'member',
  permissions,
  roleIds,
  isOwner,
  bot: false,
  highestRole: { id: 'g', name: '@everyone', position: 0 },
});

test('owner and Administrator are admin, Manage Server is manage, grants give view or edit until they expire', async () => {
  const clock = new ManualClock(1_000_000);
  const grants: Grant[] = [
    { id: 1, guildId: 'g', subjectType: 'role', subjectId: 'helpers', level: 'view', expiresAt: null },
    { id: 2, guildId: 'g', subjectType: 'member', subjectId: 'pat', level: 'edit', expiresAt: new Date(2_000_000) },
  ];
  const rule = createAccessRule({
    clock,
    grants: { grantsOf: async () => grants },
    gateway: gatewayWith({
      owner: member(0n, [], true),
      admin: member(PermissionFlagsBits.Administrator),
      manager: member(PermissionFlagsBits.ManageGuild),
      helper: member(0n, ['helpers']),
      pat: member(0n, ['helpers']),
      plain: member(0n),
    }),
  });
  const level = async (userId: string) => (await rule.of('g', userId)).level;
  assert.equal(await level('owner'), 'admin');
  assert.equal(await level('admin'), 'admin');
  assert.equal(await level('manager'), 'manage');
  assert.equal(await level('helper'), 'view');
  assert.equal(await level('pat'), 'edit', 'the highest grant wins');
  assert.equal(await level('plain'), 'member');
  assert.equal(await level('stranger'), 'none');
  clock.advance(1_000_000);
  assert.equal(await level('pat'), 'view', 'the expired member grant is skipped; the role grant remains');

  await assert.rejects(rule.require('g', 'helper', 'edit'), (error: unknown) => error instanceof Forbidden && /read-only/.test(error.message));
  await assert.rejects(rule.require('g', 'manager', 'admin'), /Only the server owner or an Administrator/);
  await assert.rejects(rule.require('g', 'stranger', 'member'), /not a member/);
  await assert.rejects(rule.require('other', 'owner', 'view'), NotFound);
  assert.equal((await rule.require('g', 'admin', 'admin')).isOwner, false);
});

test("requireSelfOr: your own data, or anyone's at the level; the refusal is a plain sentence", () => {
  const as = (userId: string, level: GuildAccess['level']): GuildAccess => ({ guildId: 'g', userId, level, isOwner: false, permissions: '0' });
  requireSelfOr(as('pat', 'member'), 'pat', 'view', SELF_ONLY.inventory);
  requireSelfOr(as('viewer', 'view'), 'pat', 'view', SELF_ONLY.inventory);
  requireSelfOr(as('editor', 'edit'), 'pat', 'edit', SELF_ONLY.removeItems);
  for (const [sentence, level] of [
    ['You can only see your own inventory.', 'view'],
    ['You can only see your own rank.', 'view'],
    ['You can only remove items from your own inventory.', 'edit'],
  ] as const) {
    assert.throws(
      () => requireSelfOr(as('pat', 'member'), 'sam', level, sentence),
      (error: unknown) => error instanceof Forbidden && error.message === sentence,
    );
  }
  assert.deepEqual(SELF_ONLY, {
    inventory: 'You can only see your own inventory.',
    rank: 'You can only see your own rank.',
    removeItems: 'You can only remove items from your own inventory.',
  });
  assert.throws(() => requireSelfOr(as('viewer', 'view'), 'sam', 'edit', SELF_ONLY.removeItems), { message: SELF_ONLY.removeItems });
});
