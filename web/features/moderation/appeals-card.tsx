// The ban appeals' settings: whether a ban's DM links to the appeal page (on by default), and the
// words the page shows the banned member above the form.
import { APPEAL_TEXT_LIMITS } from '../../../src/shared/appeals';
import { APPEAL_INTRO_MAX } from '../../../src/shared/moderation';
import { Field, SwitchRow } from '../../components/form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Textarea } from '../../components/ui/textarea';
import type { SettingsCardProps } from './settings-cards';

/** The appeals card of the moderation settings. */
export function AppealsCard({ draft, update, errors, readOnly }: SettingsCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Ban appeals</CardTitle>
        <CardDescription>
          A banned member’s DM links to an appeal page on this dashboard. They sign in with Discord and write {APPEAL_TEXT_LIMITS.min} to{' '}
          {APPEAL_TEXT_LIMITS.max} characters; you accept or deny it under View Appeals, or with /appeal.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <SwitchRow
          label="Take ban appeals"
          description={draft.appealsEnabled ? 'Bans’ DMs carry the appeal link.' : 'Bans’ DMs carry no link, and the appeal page takes no new appeal.'}
          checked={draft.appealsEnabled}
          onChange={(appealsEnabled) => update({ appealsEnabled })}
          disabled={readOnly}
          error={errors.appealsEnabled}
        />
        <Field label="Words on the appeal page" hint="Optional: what to write, how long a decision takes." error={errors.appealIntro}>
          {(ids) => (
            <Textarea
              {...ids}
              rows={3}
              maxLength={APPEAL_INTRO_MAX}
              value={draft.appealIntro}
              onChange={(event) => update({ appealIntro: event.target.value })}
              disabled={readOnly}
              placeholder="Tell us what happened and what you will do differently. We answer within a week."
            />
          )}
        </Field>
      </CardContent>
    </Card>
  );
}
