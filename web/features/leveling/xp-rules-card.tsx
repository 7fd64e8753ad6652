// The XP rules card: channels and roles that earn no XP, and channels and roles with their own
// multiplier (0.1-5×), saved with the Leveling form. How they combine is said once, in src/shared.
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { isSnowflake } from '../../../src/shared/auth';
import type { GuildDirectory } from '../../../src/shared/servers';
import { XP_RULE_MULTIPLIER, XP_RULES_EXPLAINED, XP_RULES_MAX } from '../../../src/shared/xp-rules';
import { Field, RolePicker, type PickerProps } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Combobox, type ComboboxOption } from '../../components/ui/combobox';
import { FieldError, Input } from '../../components/ui/input';
import { IdListPicker } from '../moderation/id-list-picker';
import type { LevelUpDraft, MultiplierRow } from './level-up-draft';

const CHANNEL_ICONS = { text: '#', announcement: '#', voice: '🔊 ', category: '▾ ', other: '#' } as const;

/** Any channel XP is earned in or under: text, announcement and voice channels, and categories. */
function XpChannelPicker(props: PickerProps) {
  const options: ComboboxOption[] = (props.directory?.channels ?? [])
    .filter((channel) => channel.kind !== 'other')
    .map((channel) => ({ value: channel.id, label: `${CHANNEL_ICONS[channel.kind]}${channel.name}` }));
  const { directory: _directory, assignableOnly: _assignable, allowNone = true, ...rest } = props;
  return (
    <Combobox
      {...rest}
      options={options}
      allowNone={allowNone}
      placeholder="Pick a channel"
      searchPlaceholder="Search channels or paste an id"
      emptyText="No channel matches."
      acceptTyped={(text) => (isSnowflake(text) ? { value: text, label: `Channel ${text}` } : null)}
    />
  );
}

/** A channel's or role's name as the rows show it. */
function nameOf(kind: 'channel' | 'role', id: string, directory: GuildDirectory | undefined): string {
  if (kind === 'role') return `@${directory?.roles.find((role) => role.id === id)?.name ?? id}`;
  const channel = directory?.channels.find((candidate) => candidate.id === id);
  return channel ? `${CHANNEL_ICONS[channel.kind]}${channel.name}` : `Channel ${id}`;
}

/** Props of MultiplierRows. */
interface MultiplierRowsProps {
  kind: 'channel' | 'role';
  field: 'xpChannelMultipliers' | 'xpRoleMultipliers';
  rows: MultiplierRow[];
  onChange: (rows: MultiplierRow[]) => void;
  directory: GuildDirectory | undefined;
  errors: Record<string, string>;
  readOnly: boolean;
}

/** Channels or roles with their multiplier: one row each (its number editable, its error under it), and a picker adding one at 2×. */
function MultiplierRows({ kind, field, rows, onChange, directory, errors, readOnly }: MultiplierRowsProps) {
  const [adding, setAdding] = useState<string | null>(null);
  const Picker = kind === 'role' ? RolePicker : XpChannelPicker;
  const noun = kind === 'role' ? 'Role' : 'Channel';
  const add = () => {
    if (!adding || rows.some((row) => row.id === adding)) return;
    onChange([...rows, { id: adding, multiplier: '2' }]);
    setAdding(null);
  };
  return (
    <div className="stack-sm">
      <span className="strong">{noun} multipliers</span>
      {rows.length === 0 ? <p className="muted small">No {kind} has its own multiplier.</p> : null}
      <ul className="stack-sm" aria-label={`${noun} multipliers`}>
        {rows.map((row, index) => {
          const name = nameOf(kind, row.id, directory);
          const error = errors[`${field}.${index}.multiplier`] ?? errors[`${field}.${index}.id`];
          return (
            <li key={row.id} className="stack-sm">
              <div className="row">
                <span className="grow">{name}</span>
                <Input
                  type="number"
                  inputMode="decimal"
                  min={XP_RULE_MULTIPLIER.min}
                  max={XP_RULE_MULTIPLIER.max}
                  step={0.1}
                  aria-label={`Multiplier of ${name}`}
                  aria-invalid={error ? true : undefined}
                  style={{ maxWidth: '7rem' }}
                  value={row.multiplier}
                  onChange={(event) => onChange(rows.map((other) => (other.id === row.id ? { ...other, multiplier: event.target.value } : other)))}
                  disabled={readOnly}
                />
                <span aria-hidden="true">×</span>
                {readOnly ? null : (
                  <Button variant="ghost" size="icon" aria-label={`Remove ${name}`} onClick={() => onChange(rows.filter((other) => other.id !== row.id))}>
                    <Trash2 size={16} aria-hidden="true" />
                  </Button>
                )}
              </div>
              <FieldError message={error} />
            </li>
          );
        })}
      </ul>
      <FieldError message={errors[field]} />
      {readOnly || rows.length >= XP_RULES_MAX ? null : (
        <div className="row">
          <div className="grow">
            <Picker
              aria-label={`${noun} to give a multiplier`}
              value={adding}
              onChange={setAdding}
              directory={directory}
              allowNone={false}
              assignableOnly={false}
            />
          </div>
          <Button variant="secondary" onClick={add} disabled={!adding}>
            <Plus size={16} aria-hidden="true" /> Add {kind}
          </Button>
        </div>
      )}
    </div>
  );
}

/** Props of XpRulesCard. */
export interface XpRulesCardProps {
  draft: LevelUpDraft;
  update: (patch: Partial<LevelUpDraft>) => void;
  errors: Record<string, string>;
  directory: GuildDirectory | undefined;
  readOnly: boolean;
}

/** The XP rules card. */
export function XpRulesCard({ draft, update, errors, directory, readOnly }: XpRulesCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>XP rules</CardTitle>
        <CardDescription>
          Where and for whom XP is earned, in chat and in voice. Multipliers go from {XP_RULE_MULTIPLIER.min}× to {XP_RULE_MULTIPLIER.max}×.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <div className="form-grid">
          <Field label="No-XP channels" hint="Messages and voice time here earn no XP (a category covers its channels)." error={errors.xpExcludedChannelIds}>
            {(ids) => (
              <IdListPicker
                {...ids}
                kind="channel"
                listLabel="No-XP channels"
                picker={XpChannelPicker}
                values={draft.xpExcludedChannelIds}
                onChange={(xpExcludedChannelIds) => update({ xpExcludedChannelIds })}
                directory={directory}
                disabled={readOnly}
              />
            )}
          </Field>
          <Field label="No-XP roles" hint="Members with any of these roles earn no XP." error={errors.xpExcludedRoleIds}>
            {(ids) => (
              <IdListPicker
                {...ids}
                kind="role"
                listLabel="No-XP roles"
                values={draft.xpExcludedRoleIds}
                onChange={(xpExcludedRoleIds) => update({ xpExcludedRoleIds })}
                directory={directory}
                disabled={readOnly}
              />
            )}
          </Field>
        </div>
        <div className="form-grid">
          <MultiplierRows
            kind="channel"
            field="xpChannelMultipliers"
            rows={draft.xpChannelMultipliers}
            onChange={(xpChannelMultipliers) => update({ xpChannelMultipliers })}
            directory={directory}
            errors={errors}
            readOnly={readOnly}
          />
          <MultiplierRows
            kind="role"
            field="xpRoleMultipliers"
            rows={draft.xpRoleMultipliers}
            onChange={(xpRoleMultipliers) => update({ xpRoleMultipliers })}
            directory={directory}
            errors={errors}
            readOnly={readOnly}
          />
        </div>
        <p className="muted small">{XP_RULES_EXPLAINED}</p>
      </CardContent>
    </Card>
  );
}
