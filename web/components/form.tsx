// Form pieces shared by the feature pages: a labelled field with its hint and error, a labelled
// switch row, and searchable pickers of the guild's channels, roles and emojis (ids typed or
// pasted from Discord are accepted too).
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { isSnowflake } from '../../src/shared/auth';
import { parseEmoji } from '../../src/shared/reaction-roles';
import { MemberSummarySchema, type GuildDirectory } from '../../src/shared/servers';
import { guildKeys, readGuild } from '../api/guild';
import { FieldError, Label } from './ui/input';
import { Combobox, type ComboboxOption } from './ui/combobox';
import { Switch } from './ui/switch';
import { INVALID_CONTROL, fieldErrorShown, listenForSubmits } from './focus-invalid';

/** When a field's error appears or changes, the first invalid field of its form is brought into view and focused. */
function useFocusOnError(error: string | undefined, ref: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    listenForSubmits();
    if (error) fieldErrorShown(ref.current);
  }, [error, ref]);
}

/** Props of Field. */
export interface FieldProps {
  label: string;
  hint?: ReactNode;
  error?: string;
  /** Renders the control with the ids that wire the label, hint and error to it. */
  children: (ids: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}

/** A labelled control with an optional hint and an error under it. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const ref = useRef<HTMLDivElement>(null);
  useFocusOnError(error, ref);
  return (
    <div className="field" ref={ref} {...(error ? { [INVALID_CONTROL]: id } : {})}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-describedby': describedBy, ...(error ? { 'aria-invalid': true } : {}) })}
      {hint ? (
        <p id={hintId} className="muted small">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** Props of SwitchRow. */
export interface SwitchRowProps {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  error?: string;
}

/** A switch with its label and a line of explanation, as a settings row; screen readers hear the line and the error with the switch. */
export function SwitchRow({ label, description, checked, onChange, disabled, error }: SwitchRowProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const ref = useRef<HTMLDivElement>(null);
  useFocusOnError(error, ref);
  return (
    <div className="switch-row" ref={ref} {...(error ? { [INVALID_CONTROL]: id } : {})}>
      <div className="switch-row-text">
        <Label htmlFor={id} className="switch-row-label">
          {label}
        </Label>
        {description ? (
          <p id={descriptionId} className="muted small">
            {description}
          </p>
        ) : null}
        <FieldError id={errorId} message={error} />
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} disabled={disabled} aria-describedby={describedBy} />
    </div>
  );
}

/** Props of the pickers. */
export interface PickerProps {
  id?: string;
  value: string | null;
  onChange: (value: string | null) => void;
  directory: GuildDirectory | undefined;
  disabled?: boolean;
  /** Offer "None" (default true). */
  allowNone?: boolean;
  /** Roles: only those the bot can give (default true; dashboard access takes any role). */
  assignableOnly?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/** A picker of the guild's channels or roles that also takes a typed or pasted id. */
function IdPicker({
  noun,
  options,
  value,
  onChange,
  allowNone = true,
  directory: _directory,
  assignableOnly: _assignableOnly,
  ...rest
}: PickerProps & { noun: 'channel' | 'role'; options: ComboboxOption[] }) {
  const Noun = noun === 'channel' ? 'Channel' : 'Role';
  return (
    <Combobox
      {...rest}
      value={value}
      onChange={onChange}
      options={options}
      allowNone={allowNone}
      placeholder={`Pick a ${noun}`}
      searchPlaceholder={`Search ${noun}s or paste an id`}
      emptyText={`No ${noun} matches.`}
      acceptTyped={(text) => (isSnowflake(text) ? { value: text, label: `${Noun} ${text}` } : null)}
    />
  );
}

/** A text channel of the guild (searchable; an id can be typed). */
export function ChannelPicker(props: PickerProps) {
  const options: ComboboxOption[] = (props.directory?.channels ?? [])
    .filter((channel) => channel.kind === 'text' || channel.kind === 'announcement' || channel.id === props.value)
    .map((channel) => ({ value: channel.id, label: `#${channel.name}`, ...(channel.bot.send ? {} : { hint: 'The bot cannot post here' }) }));
  return <IdPicker {...props} noun="channel" options={options} />;
}

/** A voice channel of the guild, where the bot plays music (searchable; an id can be typed). */
export function VoiceChannelPicker(props: PickerProps) {
  const options: ComboboxOption[] = (props.directory?.channels ?? [])
    .filter((channel) => channel.kind === 'voice' || channel.id === props.value)
    .map((channel) => ({ value: channel.id, label: `🔊 ${channel.name}` }));
  return <IdPicker {...props} noun="channel" options={options} />;
}

/**
 * Why a role offered for the bot to hand out needs a second look: the bot cannot give it, the
 * person could not give it in Discord, or it carries staff permissions.
 */
function handoutHint(role: GuildDirectory['roles'][number]): string | undefined {
  if (!role.assignable) return 'The bot cannot give it';
  if (role.notYours) return 'You cannot give it in Discord';
  if (role.dangerous.length > 0) return `Staff permissions: ${role.dangerous.join(', ')}`;
  return undefined;
}

/** A role of the guild: by default one the bot can give, each marked with what stands in the way of handing it out (searchable; an id can be typed). */
export function RolePicker(props: PickerProps) {
  const assignableOnly = props.assignableOnly ?? true;
  const options: ComboboxOption[] = (props.directory?.roles ?? [])
    .filter((role) => !role.isEveryone && (!assignableOnly || role.assignable || role.id === props.value))
    .map((role) => {
      const hint = assignableOnly ? handoutHint(role) : undefined;
      return { value: role.id, label: `@${role.name}`, ...(hint ? { hint } : {}) };
    });
  return <IdPicker {...props} noun="role" options={options} />;
}

/** Common emojis offered besides the server's own. */
const COMMON_EMOJIS = ['✅', '👍', '❤️', '🎉', '🔴', '🟢', '🔵', '🟡', '⭐', '🎮', '🎵', '📢', '📚', '🎨', '🏆', '🔔'];

/** The server's custom emojis and common emojis (searchable; any emoji, or <:name:id>, can be typed). */
export function EmojiPicker({ value, onChange, directory, ...rest }: Omit<PickerProps, 'allowNone'>) {
  const custom: ComboboxOption[] = (directory?.emojis ?? []).map((emoji) => ({
    value: `<${emoji.animated ? 'a' : ''}:${emoji.name}:${emoji.id}>`,
    label: `:${emoji.name}:`,
    hint: 'This server',
    icon: <img src={emoji.url} alt="" className="emoji-image" />,
  }));
  const common: ComboboxOption[] = COMMON_EMOJIS.map((emoji) => ({ value: emoji, label: emoji }));
  return (
    <Combobox
      {...rest}
      value={value}
      onChange={onChange}
      options={[...custom, ...common]}
      placeholder="Pick an emoji"
      searchPlaceholder="Search, or type any emoji"
      emptyText="Type one emoji, or a custom emoji as <:name:id>."
      acceptTyped={(text) => (parseEmoji(text) ? { value: text, label: text } : null)}
    />
  );
}

/** Props of MemberPicker. */
export interface MemberPickerProps {
  id?: string;
  guildId: string;
  value: string | null;
  onChange: (value: string | null) => void;
  disabled?: boolean;
  placeholder?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/** A member of the guild, searched on Discord by name as you type (an id can be pasted too). */
export function MemberPicker({ guildId, value, onChange, placeholder = 'Pick a member', ...rest }: MemberPickerProps) {
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<ComboboxOption | null>(null);
  const deferred = useDeferredValue(query.trim());
  const search = useQuery({
    queryKey: [...guildKeys.all(guildId), 'members', deferred],
    queryFn: readGuild(guildId, `/members?q=${encodeURIComponent(deferred)}`, MemberSummarySchema.array()),
    enabled: deferred.length > 0,
    staleTime: 30_000,
  });
  const options: ComboboxOption[] = (search.data ?? [])
    .filter((member) => !member.bot)
    .map((member) => ({ value: member.id, label: member.displayName, hint: member.displayName === member.username ? undefined : `@${member.username}` }));
  return (
    <Combobox
      {...rest}
      value={value}
      onChange={(next) => {
        setChosen(options.find((option) => option.value === next) ?? null);
        onChange(next);
      }}
      options={options}
      selectedOption={chosen}
      onSearchChange={setQuery}
      placeholder={placeholder}
      searchPlaceholder="Search members by name or paste an id"
      emptyText={deferred ? (search.isFetching ? 'Searching…' : 'No member matches.') : 'Type a name to search.'}
      acceptTyped={(text) => (isSnowflake(text) ? { value: text, label: `Member ${text}` } : null)}
    />
  );
}
