// The moderation settings' cards: who is told by DM before an action, how long warnings count and
// the escalation ladder they climb. Auto moderation has its own file.
import { Plus, Trash2 } from 'lucide-react';
import { ESCALATION_ACTIONS, type Duration } from '../../../src/shared/moderation';
import { Field, SwitchRow } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { parseWhole } from '../../numbers';
import { type Draft, type EscalationAction, type StepDraft } from './draft';
import { DurationSelect } from './duration-select';

/** What the settings cards receive. */
export interface SettingsCardProps {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  errors: Record<string, string>;
  readOnly: boolean;
}

const DM_SWITCHES = [
  { key: 'ban', label: 'Before a ban' },
  { key: 'kick', label: 'Before a kick' },
  { key: 'timeout', label: 'Before a timeout' },
  { key: 'warn', label: 'With a warning' },
] as const;

/** The four "DM the member first" switches. */
export function DmCard({ draft, update, errors, readOnly }: SettingsCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Direct messages</CardTitle>
        <CardDescription>
          Tell the member the action and its reason by DM before it happens (members with DMs closed are not told; the log says so).
        </CardDescription>
      </CardHeader>
      <CardContent>
        {DM_SWITCHES.map(({ key, label }) => (
          <SwitchRow
            key={key}
            label={label}
            checked={draft.moderationDm[key]}
            onChange={(on) => update({ moderationDm: { ...draft.moderationDm, [key]: on } })}
            disabled={readOnly}
            error={errors[`moderationDm.${key}`]}
          />
        ))}
      </CardContent>
    </Card>
  );
}

const STEP_ACTION_OPTIONS = ESCALATION_ACTIONS.map((action) => ({
  value: action,
  label: action === 'timeout' ? 'Timeout' : action === 'kick' ? 'Kick' : 'Ban',
}));
const asStepAction = (value: string): EscalationAction | null => ESCALATION_ACTIONS.find((action) => action === value) ?? null;
/** Most steps the ladder may have (the shared schema's limit). */
const MAX_STEPS = 10;

/** One step of the ladder. */
function StepRow({
  step,
  index,
  errors,
  readOnly,
  onChange,
  onRemove,
}: {
  step: StepDraft;
  index: number;
  errors: Record<string, string>;
  readOnly: boolean;
  onChange: (step: StepDraft) => void;
  onRemove: () => void;
}) {
  const at = `escalation.${index}`;
  return (
    <li className="step-row" aria-label={`Step ${index + 1}`}>
      <Field label="Warnings" error={errors[`${at}.warnings`]}>
        {(ids) => (
          <Input
            {...ids}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            value={step.warnings}
            onChange={(event) => onChange({ ...step, warnings: event.target.value })}
            disabled={readOnly}
          />
        )}
      </Field>
      <Field label="Action" error={errors[`${at}.action`]}>
        {(ids) => (
          <Select
            id={ids.id}
            aria-label={`Step ${index + 1} action`}
            value={step.action}
            onValueChange={(next) => {
              const action = asStepAction(next) ?? step.action;
              onChange({ ...step, action, duration: action === 'timeout' ? (step.duration ?? '1h') : null });
            }}
            options={STEP_ACTION_OPTIONS}
            disabled={readOnly}
          />
        )}
      </Field>
      {step.action === 'timeout' ? (
        <Field label="Duration" error={errors[`${at}.duration`]}>
          {(ids) => (
            <DurationSelect
              id={ids.id}
              label={`Step ${index + 1} duration`}
              value={step.duration}
              onChange={(duration) => onChange({ ...step, duration })}
              disabled={readOnly}
            />
          )}
        </Field>
      ) : (
        <span className="step-spacer" aria-hidden="true" />
      )}
      {readOnly ? null : (
        <Button variant="ghost" size="icon" className="step-remove" aria-label={`Remove step ${index + 1}`} onClick={onRemove}>
          <Trash2 size={16} aria-hidden="true" />
        </Button>
      )}
    </li>
  );
}

/** A new step: a 1-hour timeout at one warning more than the highest step (3 for the first). */
function nextStep(steps: readonly StepDraft[]): StepDraft {
  const highest = steps.reduce((most, step) => Math.max(most, parseWhole(step.warnings)), 0);
  const duration: Duration = '1h';
  return { warnings: String(steps.length === 0 ? 3 : Math.min(100, highest + 1)), action: 'timeout', duration };
}

/** Warning expiry and the escalation ladder. */
export function WarningsCard({ draft, update, errors, readOnly }: SettingsCardProps) {
  const steps = draft.escalation;
  const setSteps = (escalation: StepDraft[]) => update({ escalation });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Warnings and escalation</CardTitle>
        <CardDescription>When a member reaches a step's number of active warnings, the bot takes its action too.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <Field
          label="Warnings expire after (days)"
          hint="An older warning no longer counts toward the ladder. 0 keeps warnings forever."
          error={errors.warningExpiryDays}
        >
          {(ids) => (
            <Input
              {...ids}
              type="number"
              inputMode="numeric"
              min={0}
              max={3650}
              step={1}
              value={draft.warningExpiryDays}
              onChange={(event) => update({ warningExpiryDays: event.target.value })}
              disabled={readOnly}
            />
          )}
        </Field>
        <div className="stack-sm">
          <p className="label">Escalation ladder</p>
          {steps.length === 0 ? <p className="muted small">No steps: warnings are only recorded.</p> : null}
          {steps.length > 0 ? (
            <ol className="step-list" aria-label="Escalation steps">
              {steps.map((step, index) => (
                <StepRow
                  key={index}
                  step={step}
                  index={index}
                  errors={errors}
                  readOnly={readOnly}
                  onChange={(changed) => setSteps(steps.map((candidate, at) => (at === index ? changed : candidate)))}
                  onRemove={() => setSteps(steps.filter((_, at) => at !== index))}
                />
              ))}
            </ol>
          ) : null}
          {errors.escalation ? (
            <p className="field-error" role="alert">
              {errors.escalation}
            </p>
          ) : null}
          {readOnly ? null : (
            <div className="row">
              <Button variant="secondary" size="sm" onClick={() => setSteps([...steps, nextStep(steps)])} disabled={steps.length >= MAX_STEPS}>
                <Plus size={14} aria-hidden="true" /> Add step
              </Button>
              {steps.length >= MAX_STEPS ? <span className="muted small">At most {MAX_STEPS} steps.</span> : null}
            </div>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
