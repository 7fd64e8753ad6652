// The Level-up messages and XP rules cards' part of the Leveling form: the fields as the form
// edits them (multipliers as typed) and their part of the PUT body.
import type { LevelUpDestination, LevelUpWhen } from '../../../src/shared/level-up-messages';
import type { SettingsView } from '../../../src/shared/settings';
import { parseDecimal, parseWhole } from '../../numbers';

/** A channel or role with its multiplier as typed. */
export interface MultiplierRow {
  id: string;
  multiplier: string;
}

/** The cards' fields in the form. */
export interface LevelUpDraft {
  levelUpDestination: LevelUpDestination;
  levelUpChannelId: string | null;
  levelUpMessage: string;
  levelUpWhen: LevelUpWhen;
  levelUpEveryN: string;
  xpExcludedChannelIds: string[];
  xpExcludedRoleIds: string[];
  xpChannelMultipliers: MultiplierRow[];
  xpRoleMultipliers: MultiplierRow[];
}

const rowsOf = (rows: readonly { id: string; multiplier: number }[]): MultiplierRow[] =>
  rows.map((row) => ({ id: row.id, multiplier: String(row.multiplier) }));
const bodyRows = (rows: readonly MultiplierRow[]) => rows.map((row) => ({ id: row.id, multiplier: parseDecimal(row.multiplier) }));

/** The cards' fields from the server's settings. */
export function levelUpDraftOf(view: SettingsView): LevelUpDraft {
  return {
    levelUpDestination: view.levelUpDestination,
    levelUpChannelId: view.levelUpChannelId,
    levelUpMessage: view.levelUpMessage,
    levelUpWhen: view.levelUpWhen,
    levelUpEveryN: String(view.levelUpEveryN),
    xpExcludedChannelIds: [...view.xpExcludedChannelIds],
    xpExcludedRoleIds: [...view.xpExcludedRoleIds],
    xpChannelMultipliers: rowsOf(view.xpChannelMultipliers),
    xpRoleMultipliers: rowsOf(view.xpRoleMultipliers),
  };
}

/** The cards' part of the PUT body. */
export function levelUpBodyOf(draft: LevelUpDraft) {
  return {
    levelUpDestination: draft.levelUpDestination,
    levelUpChannelId: draft.levelUpChannelId,
    levelUpMessage: draft.levelUpMessage,
    levelUpWhen: draft.levelUpWhen,
    levelUpEveryN: parseWhole(draft.levelUpEveryN),
    xpExcludedChannelIds: draft.xpExcludedChannelIds,
    xpExcludedRoleIds: draft.xpExcludedRoleIds,
    xpChannelMultipliers: bodyRows(draft.xpChannelMultipliers),
    xpRoleMultipliers: bodyRows(draft.xpRoleMultipliers),
  };
}
