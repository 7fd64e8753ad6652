// A list of roles or channels (auto moderation's exemptions): each chosen one as a chip with a
// remove button, and a picker that adds one more (searchable; an id can be pasted).
import { X } from 'lucide-react';
import type { ComponentType } from 'react';
import type { GuildDirectory } from '../../../src/shared/servers';
import { ChannelPicker, RolePicker, type PickerProps } from '../../components/form';

/** Props of IdListPicker. */
export interface IdListPickerProps {
  id?: string;
  kind: 'role' | 'channel';
  values: readonly string[];
  onChange: (values: string[]) => void;
  directory: GuildDirectory | undefined;
  disabled?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  /** The chips' accessible name ("Exempt roles" by default). */
  listLabel?: string;
  /** Another picker of the same kind (e.g. one that offers voice channels too). */
  picker?: ComponentType<PickerProps>;
}

/** The name of a role or channel as a chip shows it. */
function nameOf(kind: 'role' | 'channel', id: string, directory: GuildDirectory | undefined): string {
  if (kind === 'role') {
    const role = directory?.roles.find((candidate) => candidate.id === id);
    return role ? `@${role.name}` : `Role ${id}`;
  }
  const channel = directory?.channels.find((candidate) => candidate.id === id);
  return channel ? `#${channel.name}` : `Channel ${id}`;
}

/** Chosen ids as chips, and a picker to add one. */
export function IdListPicker({ kind, values, onChange, directory, disabled, listLabel, picker, ...ids }: IdListPickerProps) {
  const Picker = picker ?? (kind === 'role' ? RolePicker : ChannelPicker);
  return (
    <div className="stack-sm">
      {values.length > 0 ? (
        <ul className="chip-row" aria-label={listLabel ?? (kind === 'role' ? 'Exempt roles' : 'Exempt channels')}>
          {values.map((id) => {
            const name = nameOf(kind, id, directory);
            return (
              <li key={id} className="chip">
                <span>{name}</span>
                {disabled ? null : (
                  <button type="button" className="chip-remove" aria-label={`Remove ${name}`} onClick={() => onChange(values.filter((value) => value !== id))}>
                    <X size={12} aria-hidden="true" />
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      <Picker
        {...ids}
        value={null}
        onChange={(id) => {
          if (id && !values.includes(id)) onChange([...values, id]);
        }}
        directory={directory}
        allowNone={false}
        assignableOnly={false}
        disabled={disabled}
      />
    </div>
  );
}
