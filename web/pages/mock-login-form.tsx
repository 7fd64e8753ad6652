// The mock-login form of /test-auth: prefilled demo identity, field checks with the shared
// schema, window.alert for the outcome as the spec says, then the redirect after 1000 ms.
import { fieldSentence } from '../../src/shared/field-words';
import { LogIn } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { MockLoginInput } from '../../src/shared/auth';
import { DEMO_LOGIN_DEFAULTS } from '../../src/shared/demo-login';
import { mockLogin } from '../api/auth';
import { ApiRequestError } from '../api/client';
import { Button } from '../components/ui/button';
import { FieldError, Input, Label } from '../components/ui/input';

/** Wait between the success alert and the redirect (spec section 9). */
const REDIRECT_DELAY_MS = 1000;

type Field = 'username' | 'id' | 'discriminator';

/** The form's names of its fields, for its messages. */
const MOCK_LOGIN_LABELS = { id: 'User ID' };

/** Props of MockLoginForm. */
export interface MockLoginFormProps {
  /** Called with an explanation when the server has no mock login (404: real Discord mode). */
  onDisabled: (reason: string) => void;
}

/** The form; on success the page leaves for /dashboard#login-success. */
export function MockLoginForm({ onDisabled }: MockLoginFormProps) {
  const [values, setValues] = useState<Record<Field, string>>({ ...DEMO_LOGIN_DEFAULTS });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = MockLoginInput.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'username' || field === 'id' || field === 'discriminator') next[field] ??= fieldSentence(field, issue.message, MOCK_LOGIN_LABELS);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const { user } = await mockLogin(parsed.data);
      window.alert(`Login successful! Welcome, ${user.username}.`);
      window.setTimeout(() => window.location.assign('/dashboard#login-success'), REDIRECT_DELAY_MS);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiRequestError) {
        if (error.status === 404) {
          onDisabled('Demo login is turned off: this server runs with a real Discord bot. Use Continue with Discord.');
        }
        window.alert(`Login failed: ${error.body?.message ?? error.message}`);
        return;
      }
      window.alert(`Network error: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const field = (name: Field, label: string, props: { inputMode?: 'numeric'; autoComplete?: string }) => (
    <div className="field">
      <Label htmlFor={`mock-${name}`}>{label}</Label>
      <Input
        id={`mock-${name}`}
        name={name}
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `mock-${name}-error` : undefined}
        {...props}
      />
      <FieldError id={`mock-${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <form className="stack" onSubmit={(event) => void submit(event)} noValidate aria-label="Mock login">
      {field('username', 'Username', { autoComplete: 'off' })}
      <div className="grid grid-2-1">
        {field('id', 'User ID (snowflake)', { inputMode: 'numeric' })}
        {field('discriminator', 'Discriminator', { inputMode: 'numeric' })}
      </div>
      <Button type="submit" disabled={busy}>
        <LogIn size={16} aria-hidden="true" /> {busy ? 'Signing in…' : 'Mock Login'}
      </Button>
    </form>
  );
}
