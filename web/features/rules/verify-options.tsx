// Rule Verification's options beyond the ✅ (issue 25, point 6): the Verify button, the account-age
// gate and what it does with younger accounts, and what removing the ✅ does, in plain words.
import { MAX_ACCOUNT_AGE_DAYS, UNREACT_EXPLAINED, type UNREACT_ACTIONS, type YOUNG_ACCOUNT_ACTIONS } from '../../../src/shared/verification';
import { VERIFY_EMOJI } from '../../../src/shared/welcome';
import { Field, SwitchRow } from '../../components/form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';

/** The fields of this card. */
export interface VerifyOptionsDraft {
  verificationButton: boolean;
  verificationMinAccountDays: number;
  verificationYoungAccounts: (typeof YOUNG_ACCOUNT_ACTIONS)[number];
  verificationOnUnreact: (typeof UNREACT_ACTIONS)[number];
}

const AGE_HINT =
  'Discord accounts younger than this cannot verify yet; they are told how many days are left, and verify by trying again then. 0 lets everyone verify.';

const YOUNG_OPTIONS = [
  { value: 'wait', label: 'Tell them privately to come back later' },
  { value: 'flag', label: 'Tell them, and flag them to moderators in the log channel' },
];
const UNREACT_OPTIONS = [
  { value: 'keep', label: 'Keep the verified role' },
  { value: 'remove', label: 'Take the verified role back' },
];

/** The card. */
export function VerifyOptionsCard({
  draft,
  update,
  errors,
  readOnly,
}: {
  draft: VerifyOptionsDraft;
  update: (changes: Partial<VerifyOptionsDraft>) => void;
  errors: Partial<Record<string, string>>;
  readOnly: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Button, account age and un-reacting</CardTitle>
        <CardDescription>How members verify, who has to wait, and what happens when a {VERIFY_EMOJI} is taken off.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <SwitchRow
          label="Add a Verify button under the rules"
          checked={draft.verificationButton}
          onChange={(verificationButton) => update({ verificationButton })}
          disabled={readOnly}
        />
        <Field label="Minimum account age (days)" error={errors.verificationMinAccountDays} hint={AGE_HINT}>
          {(ids) => (
            <Input
              {...ids}
              type="number"
              min={0}
              max={MAX_ACCOUNT_AGE_DAYS}
              value={String(draft.verificationMinAccountDays)}
              onChange={(event) => update({ verificationMinAccountDays: Number(event.target.value) })}
              disabled={readOnly}
            />
          )}
        </Field>
        <Field label="Younger accounts" error={errors.verificationYoungAccounts}>
          {(ids) => (
            <Select
              id={ids.id}
              aria-label="Younger accounts"
              value={draft.verificationYoungAccounts}
              onValueChange={(value) => update({ verificationYoungAccounts: value === 'flag' ? 'flag' : 'wait' })}
              options={YOUNG_OPTIONS}
              disabled={readOnly || draft.verificationMinAccountDays === 0}
            />
          )}
        </Field>
        <Field label={`When a member removes their ${VERIFY_EMOJI}`} error={errors.verificationOnUnreact} hint={UNREACT_EXPLAINED[draft.verificationOnUnreact]}>
          {(ids) => (
            <Select
              id={ids.id}
              aria-label={`When a member removes their ${VERIFY_EMOJI}`}
              value={draft.verificationOnUnreact}
              onValueChange={(value) => update({ verificationOnUnreact: value === 'remove' ? 'remove' : 'keep' })}
              options={UNREACT_OPTIONS}
              disabled={readOnly}
            />
          )}
        </Field>
      </CardContent>
    </Card>
  );
}
