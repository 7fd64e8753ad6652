// A moderator's reason (an action's, a case's new one, a pardon's, an appeal's decision): a text
// area of at most what Discord's audit log keeps, with its label, hint and error.
import { MAX_REASON_LENGTH } from '../../../src/shared/moderation';
import { Field } from '../../components/form';
import { Textarea } from '../../components/ui/textarea';

/** Props of ReasonField. */
export interface ReasonFieldProps {
  label?: string;
  error?: string | undefined;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
  placeholder?: string;
}

/** The reason's field. */
export function ReasonField({ label = 'Reason', error, hint, value, onChange, rows = 3, placeholder }: ReasonFieldProps) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(ids) => (
        <Textarea
          {...ids}
          rows={rows}
          maxLength={MAX_REASON_LENGTH}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder={placeholder}
        />
      )}
    </Field>
  );
}
