// The XP rules as one pure function: no-XP channels and roles, a channel's multiplier (the most
// specific one), the highest of the member's role multipliers, and how they combine.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { XP_RULES_DEFAULTS, XpRulesSettingsSchema, rulesNeedRoles, xpRuleFactor, type XpRulesSettings } from './xp-rules';

const [GENERAL, SPAM, THREAD, CATEGORY] = ['100000000000000001', '100000000000000002', '100000000000000003', '100000000000000004'];
const [MUTED, BOOSTED, VIP, OTHER] = ['300000000000000001', '300000000000000002', '300000000000000003', '300000000000000004'];
const rules = (overrides: Partial<XpRulesSettings>): XpRulesSettings => ({ ...XP_RULES_DEFAULTS, ...overrides });

describe('xpRuleFactor', () => {
  test('no rules: 1 everywhere for everyone', () => {
    assert.equal(xpRuleFactor(XP_RULES_DEFAULTS, { channelIds: [GENERAL], roleIds: [VIP] }), 1);
  });

  test('a no-XP channel or role earns nothing, whatever the multipliers', () => {
    const r = rules({
      xpExcludedChannelIds: [SPAM],
      xpExcludedRoleIds: [MUTED],
      xpChannelMultipliers: [{ id: SPAM, multiplier: 5 }],
      xpRoleMultipliers: [{ id: VIP, multiplier: 3 }],
    });
    assert.equal(xpRuleFactor(r, { channelIds: [SPAM], roleIds: [VIP] }), 0);
    assert.equal(xpRuleFactor(r, { channelIds: [GENERAL], roleIds: [VIP, MUTED] }), 0);
    assert.equal(xpRuleFactor(r, { channelIds: [THREAD, SPAM], roleIds: [] }), 0, 'a thread of a no-XP channel earns nothing');
  });

  test('the highest role multiplier wins; it multiplies the channel multiplier', () => {
    const r = rules({
      xpChannelMultipliers: [{ id: GENERAL, multiplier: 0.5 }],
      xpRoleMultipliers: [
        { id: BOOSTED, multiplier: 2 },
        { id: VIP, multiplier: 3 },
      ],
    });
    assert.equal(xpRuleFactor(r, { channelIds: [GENERAL], roleIds: [BOOSTED, VIP, OTHER] }), 1.5);
    assert.equal(xpRuleFactor(r, { channelIds: [SPAM], roleIds: [BOOSTED] }), 2);
    assert.equal(xpRuleFactor(r, { channelIds: [GENERAL], roleIds: [OTHER] }), 0.5);
  });

  test('a role multiplier below 1 slows a member who has no higher one', () => {
    const r = rules({
      xpRoleMultipliers: [
        { id: MUTED, multiplier: 0.1 },
        { id: VIP, multiplier: 2 },
      ],
    });
    assert.equal(xpRuleFactor(r, { channelIds: [GENERAL], roleIds: [MUTED] }), 0.1);
    assert.equal(xpRuleFactor(r, { channelIds: [GENERAL], roleIds: [MUTED, VIP] }), 2);
  });

  test('the most specific channel rule applies: a thread, then its parent', () => {
    const r = rules({
      xpChannelMultipliers: [
        { id: CATEGORY, multiplier: 2 },
        { id: THREAD, multiplier: 4 },
      ],
    });
    assert.equal(xpRuleFactor(r, { channelIds: [THREAD, CATEGORY], roleIds: [] }), 4);
    assert.equal(xpRuleFactor(r, { channelIds: [GENERAL, CATEGORY], roleIds: [] }), 2);
  });

  test('roles are read only when a rule names roles', () => {
    assert.equal(rulesNeedRoles(rules({ xpExcludedChannelIds: [SPAM] })), false);
    assert.equal(rulesNeedRoles(rules({ xpRoleMultipliers: [{ id: VIP, multiplier: 2 }] })), true);
  });
});

describe('XpRulesSettingsSchema', () => {
  test('a multiplier out of 0.1-5 is refused at its path', () => {
    const parsed = XpRulesSettingsSchema.partial().safeParse({ xpRoleMultipliers: [{ id: VIP, multiplier: 6 }] });
    assert.deepEqual(parsed.error?.issues[0]?.path, ['xpRoleMultipliers', 0, 'multiplier']);
    assert.equal(parsed.error?.issues[0]?.message, 'must be between 0.1 and 5');
  });

  test('the same channel twice is refused', () => {
    const parsed = XpRulesSettingsSchema.partial().safeParse({ xpExcludedChannelIds: [SPAM, SPAM] });
    assert.equal(parsed.error?.issues[0]?.message, 'lists the same one twice');
  });
});
