// Verification's options beyond the ✅ reaction (issue 25, point 6): the Verify button, the
// account-age gate and what removing the reaction does. Shared by the server and the page.
import * as z from 'zod';
import { flag, wholeNumber } from './fields';

/** What happens to an account younger than the gate: it waits (and may try again), or moderators are told too. */
export const YOUNG_ACCOUNT_ACTIONS = ['wait', 'flag'] as const;
/** What removing the ✅ does: the role stays, or it is taken back. */
export const UNREACT_ACTIONS = ['keep', 'remove'] as const;

/** The longest age gate, in days. */
export const MAX_ACCOUNT_AGE_DAYS = 365;

/** The settings. */
export const VerificationSettingsShape = {
  /** Post a Verify button under the rules message, beside the ✅ reaction. */
  verificationButton: flag(),
  /** Accounts younger than this many days may not verify yet (0: no gate). */
  verificationMinAccountDays: wholeNumber(0, MAX_ACCOUNT_AGE_DAYS),
  verificationYoungAccounts: z.enum(YOUNG_ACCOUNT_ACTIONS, { error: 'must be wait or flag' }),
  verificationOnUnreact: z.enum(UNREACT_ACTIONS, { error: 'must be keep or remove' }),
};

/** Their defaults: no button, no gate, the role stays when the reaction goes (as before). */
export const VERIFICATION_DEFAULTS = {
  verificationButton: false,
  verificationMinAccountDays: 0,
  verificationYoungAccounts: 'wait',
  verificationOnUnreact: 'keep',
} as const;

/** The Verify button's custom id. */
export const VERIFY_BUTTON_ID = 'verification:verify';

const DAY_MS = 86_400_000;

/** The age gate's verdict: may verify now, or how many whole days are left (rounded up). */
export type AgeGateVerdict = { allowed: true } | { allowed: false; daysLeft: number };

/** Whether an account made at `createdAtMs` may verify at `nowMs` with a gate of `minDays`. */
export function accountAgeGate(createdAtMs: number, nowMs: number, minDays: number): AgeGateVerdict {
  if (minDays <= 0) return { allowed: true };
  const left = createdAtMs + minDays * DAY_MS - nowMs;
  if (left <= 0) return { allowed: true };
  return { allowed: false, daysLeft: Math.max(1, Math.ceil(left / DAY_MS)) };
}

/** What the member reads when the gate holds them back. */
export function youngAccountText(daysLeft: number): string {
  const days = daysLeft === 1 ? '1 day' : `${daysLeft} days`;
  return `Your Discord account is too new to verify here yet. Come back in ${days} and verify again to get access.`;
}

/** What the page says removing the ✅ does, for each choice. */
export const UNREACT_EXPLAINED: Record<(typeof UNREACT_ACTIONS)[number], string> = {
  keep: 'Removing the ✅ changes nothing: members keep the verified role until a moderator takes it.',
  remove: 'Removing the ✅ takes the verified role back (and the member role given with it).',
};
