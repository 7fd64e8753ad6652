// The Leveling settings form: the fields it edits, its editable copy (numbers as typed) and the
// PUT body, parsed as spec section 5 says: whole numbers and decimals, 0 on bad input.
import type { SettingsView } from '../../../src/shared/settings';
import { parseDecimal, parseWhole } from '../../numbers';
import { levelUpBodyOf, levelUpDraftOf, type LevelUpDraft } from './level-up-draft';

/** The multipliers, in the order the XP Multipliers card shows them. */
export const MULTIPLIERS = [
  { key: 'textMultiplier', label: 'Text multiplier', hint: 'XP for chat messages.' },
  { key: 'voiceMultiplier', label: 'Voice multiplier', hint: 'XP per minute in voice.' },
  { key: 'weekendMultiplier', label: 'Weekend multiplier', hint: 'On Saturdays and Sundays (UTC).' },
  { key: 'boostMultiplier', label: 'Boost multiplier', hint: 'For members who boost the server.' },
] as const;
type MultiplierKey = (typeof MULTIPLIERS)[number]['key'];

/** The form's copy: switches as they are, numbers as the text typed. */
export type Draft = {
  levelingEnabled: boolean;
  levelUpAnnouncements: boolean;
  levelRewardsStack: boolean;
  levelUpBonus: string;
  xpCooldown: string;
} & Record<MultiplierKey, string> &
  LevelUpDraft;

/** The form filled from the server's settings. */
export function draftOf(view: SettingsView): Draft {
  return {
    levelingEnabled: view.levelingEnabled,
    levelUpAnnouncements: view.levelUpAnnouncements,
    levelRewardsStack: view.levelRewardsStack,
    levelUpBonus: String(view.levelUpBonus),
    xpCooldown: String(view.xpCooldown),
    textMultiplier: String(view.textMultiplier),
    voiceMultiplier: String(view.voiceMultiplier),
    weekendMultiplier: String(view.weekendMultiplier),
    boostMultiplier: String(view.boostMultiplier),
    ...levelUpDraftOf(view),
  };
}

/** The PUT body (spec section 7's Leveling body, plus the role rewards' stacking). */
export function bodyOf(draft: Draft) {
  return {
    levelingEnabled: draft.levelingEnabled,
    levelUpBonus: parseWhole(draft.levelUpBonus),
    xpCooldown: parseWhole(draft.xpCooldown),
    levelUpAnnouncements: draft.levelUpAnnouncements,
    textMultiplier: parseDecimal(draft.textMultiplier),
    voiceMultiplier: parseDecimal(draft.voiceMultiplier),
    weekendMultiplier: parseDecimal(draft.weekendMultiplier),
    boostMultiplier: parseDecimal(draft.boostMultiplier),
    levelRewardsStack: draft.levelRewardsStack,
    ...levelUpBodyOf(draft),
  };
}
