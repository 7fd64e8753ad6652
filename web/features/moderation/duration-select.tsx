// The spec's durations (1 minute … 1 week) as a select: a timeout needs one; a ban may have one
// (a temporary ban), so its select offers 'Permanent' first.
import { DURATION_KEYS, DURATION_LABELS, type Duration } from '../../../src/shared/moderation';
import { Select } from '../../components/ui/select';

const DURATION_OPTIONS = DURATION_KEYS.map((key) => ({ value: key, label: DURATION_LABELS[key] }));
/** The choice that means "no duration" where that is allowed. */
const PERMANENT = 'permanent';

/** Props of DurationSelect. */
export interface DurationSelectProps {
  id?: string;
  /** The select's accessible name. */
  label: string;
  value: Duration | null;
  onChange: (value: Duration | null) => void;
  /** Offer 'Permanent' (null) as well: a ban's duration is optional. */
  permanent?: boolean;
  disabled?: boolean;
}

/** A duration picker; without `permanent` it shows 'Pick a duration' until one is chosen. */
export function DurationSelect({ id, label, value, onChange, permanent = false, disabled }: DurationSelectProps) {
  return (
    <Select
      id={id}
      aria-label={label}
      value={value ?? (permanent ? PERMANENT : '')}
      placeholder="Pick a duration"
      onValueChange={(next) => onChange(DURATION_KEYS.find((key) => key === next) ?? null)}
      options={permanent ? [{ value: PERMANENT, label: 'Permanent' }, ...DURATION_OPTIONS] : DURATION_OPTIONS}
      disabled={disabled}
    />
  );
}
