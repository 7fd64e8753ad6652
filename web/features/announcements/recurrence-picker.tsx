// The "Repeat" part of the announcement form (issue 25, point 8): none, daily, weekly on chosen
// days, monthly on a day (the last day in shorter months); a time of day in an explicit time zone
// (the browser's by default); an end (never, a last day, a number of sends); and the next three
// times it goes out, in words, computed by the same code as the server's scheduler.
import { useMemo, useState } from 'react';
import {
  describeRecurrence,
  MAX_RECURRENCE_COUNT,
  RECURRENCE_FREQUENCIES,
  RecurrenceSchema,
  upcomingOccurrences,
  WEEKDAY_NAMES,
  type Recurrence,
  type RecurrenceFrequency,
  type RecurrenceInput,
} from '../../../src/shared/recurrence';
import { Field } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Combobox } from '../../components/ui/combobox';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { viewerTimeZone } from '../../format';

/** The picker's state, as its inputs hold it. */
export interface RecurrenceDraft {
  frequency: 'none' | RecurrenceFrequency;
  time: string;
  timeZone: string;
  weekdays: number[];
  dayOfMonth: string;
  ends: 'never' | 'until' | 'count';
  until: string;
  count: string;
}

/** No repeat; when one is picked: 09:00 in the viewer's zone, today's weekday and day of the month. */
export function emptyRecurrence(now = new Date()): RecurrenceDraft {
  return {
    frequency: 'none',
    time: '09:00',
    timeZone: viewerTimeZone(),
    weekdays: [now.getDay()],
    dayOfMonth: String(now.getDate()),
    ends: 'never',
    until: '',
    count: '',
  };
}

/** The picker filled from a stored rule. */
export function recurrenceDraftOf(rule: Recurrence | null): RecurrenceDraft {
  if (!rule) return emptyRecurrence();
  return {
    frequency: rule.frequency,
    time: rule.time,
    timeZone: rule.timeZone,
    weekdays: rule.weekdays,
    dayOfMonth: String(rule.dayOfMonth ?? 1),
    ends: rule.count !== null ? 'count' : rule.until ? 'until' : 'never',
    until: rule.until ?? '',
    count: rule.count !== null ? String(rule.count) : '',
  };
}

/** The rule the API takes, or null for no repeat (the server checks it; the field errors come back named). */
export function recurrenceOf(draft: RecurrenceDraft): RecurrenceInput | null {
  if (draft.frequency === 'none') return null;
  // Empty is 0: the server names the field ("must be at least 1") rather than dropping the end.
  const number = (text: string) => Number(text.trim() || '0');
  return {
    frequency: draft.frequency,
    time: draft.time,
    timeZone: draft.timeZone,
    weekdays: draft.frequency === 'weekly' ? [...draft.weekdays].sort((a, b) => a - b) : [],
    dayOfMonth: draft.frequency === 'monthly' ? number(draft.dayOfMonth) : null,
    until: draft.ends === 'until' ? draft.until || '' : null,
    count: draft.ends === 'count' ? number(draft.count) : null,
  };
}

const FREQUENCY_OPTIONS = [
  { value: 'none', label: 'Does not repeat' },
  ...RECURRENCE_FREQUENCIES.map((frequency) => ({ value: frequency, label: { daily: 'Every day', weekly: 'Every week', monthly: 'Every month' }[frequency] })),
];
const ENDS_OPTIONS = [
  { value: 'never', label: 'Never (until cancelled)' },
  { value: 'until', label: 'On a date' },
  { value: 'count', label: 'After a number of sends' },
];

/** Every zone the browser knows, the viewer's first. */
function zoneOptions(current: string) {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = [...new Set([viewerTimeZone(), current, 'UTC', ...zones])];
  return names.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' '), ...(zone === viewerTimeZone() ? { hint: 'Your time zone' } : {}) }));
}

/** An instant in words in the rule's zone: "Friday, November 6, 2026 at 6:30 PM". */
function inWords(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(ms);
}

/** The next three times a rule goes out, or why none can be shown yet. */
function NextOccurrences({ draft }: { draft: RecurrenceDraft }) {
  // From when the form was opened: the list does not move under the reader.
  const [now] = useState(() => Date.now());
  const parsed = RecurrenceSchema.safeParse(recurrenceOf(draft));
  if (!parsed.success) return <p className="muted small">Fill in the repeat to see when it goes out.</p>;
  const rule = parsed.data;
  const next = upcomingOccurrences(rule, now, 3);
  return (
    <div className="stack-sm" aria-live="polite">
      <p className="small">{describeRecurrence(rule)}.</p>
      {next.length === 0 ? (
        <p className="error-text small">It would never go out: its end is before its first time.</p>
      ) : (
        <>
          <p className="muted small">Next {next.length === 1 ? 'time' : `${next.length} times`}:</p>
          <ul className="small" aria-label="Next occurrences">
            {next.map((ms) => (
              <li key={ms}>
                <time dateTime={new Date(ms).toISOString()}>{inWords(ms, rule.timeZone)}</time>
                {rule.timeZone !== viewerTimeZone() ? (
                  <span className="muted"> ({new Date(ms).toLocaleString(undefined, { timeStyle: 'short' })} your time)</span>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The repeat picker. `errors` are the API's field errors (keys `recurrence.<field>`); `allowNone` false when editing a repeating one. */
export function RecurrencePicker({
  value,
  onChange,
  errors,
  allowNone = true,
}: {
  value: RecurrenceDraft;
  onChange: (value: RecurrenceDraft) => void;
  errors: Record<string, string>;
  allowNone?: boolean;
}) {
  const update = (patch: Partial<RecurrenceDraft>) => onChange({ ...value, ...patch });
  const zones = useMemo(() => zoneOptions(value.timeZone), [value.timeZone]);
  const error = (field: string) => errors[`recurrence.${field}`];
  return (
    <div className="stack" role="group" aria-label="Repeat settings">
      <Field label="Repeat" error={errors.recurrence}>
        {(ids) => (
          <Select
            id={ids.id}
            options={allowNone ? FREQUENCY_OPTIONS : FREQUENCY_OPTIONS.filter((option) => option.value !== 'none')}
            value={value.frequency}
            onValueChange={(frequency) => update({ frequency: frequency as RecurrenceDraft['frequency'] })}
          />
        )}
      </Field>
      {value.frequency === 'none' ? null : (
        <>
          {value.frequency === 'weekly' ? (
            <Field label="On" error={error('weekdays')}>
              {(ids) => (
                <div className="segmented" role="group" aria-label="Days of the week" id={ids.id} aria-describedby={ids['aria-describedby']}>
                  {WEEKDAY_NAMES.map((name, day) => {
                    const on = value.weekdays.includes(day);
                    return (
                      <Button
                        key={name}
                        size="sm"
                        variant={on ? 'secondary' : 'ghost'}
                        aria-pressed={on}
                        onClick={() => update({ weekdays: on ? value.weekdays.filter((other) => other !== day) : [...value.weekdays, day] })}
                      >
                        {/* "Mon" on screen, "Monday" to a screen reader: the name holds the visible text. */}
                        <span aria-hidden="true">{name.slice(0, 3)}</span>
                        <span className="sr-only">{name}</span>
                      </Button>
                    );
                  })}
                </div>
              )}
            </Field>
          ) : null}
          <div className="form-grid">
            {value.frequency === 'monthly' ? (
              <Field label="Day of the month" hint="Past the 28th: the last day in shorter months." error={error('dayOfMonth')}>
                {(ids) => (
                  <Input {...ids} type="number" min={1} max={31} value={value.dayOfMonth} onChange={(event) => update({ dayOfMonth: event.target.value })} />
                )}
              </Field>
            ) : null}
            <Field label="At" error={error('time')}>
              {(ids) => <Input {...ids} type="time" value={value.time} onChange={(event) => update({ time: event.target.value })} />}
            </Field>
            <Field label="Time zone" hint="It keeps this local time when the clocks change." error={error('timeZone')}>
              {(ids) => (
                <Combobox
                  {...ids}
                  value={value.timeZone}
                  onChange={(timeZone) => timeZone && update({ timeZone })}
                  options={zones}
                  placeholder="Pick a time zone"
                  searchPlaceholder="Search time zones"
                  emptyText="No time zone matches."
                />
              )}
            </Field>
            <Field label="Ends" error={error('until') ?? error('count')}>
              {(ids) => (
                <Select id={ids.id} options={ENDS_OPTIONS} value={value.ends} onValueChange={(ends) => update({ ends: ends as RecurrenceDraft['ends'] })} />
              )}
            </Field>
            {value.ends === 'until' ? (
              <Field label="Last day" hint="Inclusive, in its time zone." error={error('until')}>
                {(ids) => <Input {...ids} type="date" value={value.until} onChange={(event) => update({ until: event.target.value })} />}
              </Field>
            ) : null}
            {value.ends === 'count' ? (
              <Field label="Number of sends" error={error('count')}>
                {(ids) => (
                  <Input
                    {...ids}
                    type="number"
                    min={1}
                    max={MAX_RECURRENCE_COUNT}
                    value={value.count}
                    onChange={(event) => update({ count: event.target.value })}
                  />
                )}
              </Field>
            ) : null}
          </div>
          <NextOccurrences draft={value} />
        </>
      )}
    </div>
  );
}
