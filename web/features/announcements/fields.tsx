// The announcement form's fields and its preview, shared by the new-announcement form and the
// edit dialogs of the Announcements page.
import {
  ANNOUNCEMENT_PRIORITIES,
  announcementEmbed,
  PRIORITY_STYLE,
  type AnnouncementPriority,
  type AnnouncementView,
} from '../../../src/shared/announcements';
import type { GuildDirectory } from '../../../src/shared/servers';
import { DiscordPreview } from '../../components/discord-preview';
import { ChannelPicker, Field } from '../../components/form';
import { Combobox } from '../../components/ui/combobox';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Textarea } from '../../components/ui/textarea';
import { instantToLocalInput, localInputToInstant, viewerTimeZone } from '../../format';
import { emptyRecurrence, recurrenceDraftOf, recurrenceOf, RecurrencePicker, type RecurrenceDraft } from './recurrence-picker';

export const PRIORITY_OPTIONS = ANNOUNCEMENT_PRIORITIES.map((priority) => ({ value: priority, label: PRIORITY_STYLE[priority].label }));

/** The form's fields; the schedule as the datetime-local input holds it (the viewer's wall clock). */
export interface Draft {
  title: string;
  message: string;
  channelId: string | null;
  priority: AnnouncementPriority;
  mentionRoleId: string | null;
  schedule: string;
  /** How it repeats (none by default). */
  recurrence: RecurrenceDraft;
}

/** An empty form. */
export function emptyDraft(): Draft {
  return { title: '', message: '', channelId: null, priority: 'normal', mentionRoleId: null, schedule: '', recurrence: emptyRecurrence() };
}

/** The body the API takes. */
export function bodyOf(draft: Draft) {
  return {
    title: draft.title,
    message: draft.message,
    channelId: draft.channelId ?? '',
    priority: draft.priority,
    mentionRoleId: draft.mentionRoleId,
    scheduleTime: draft.recurrence.frequency === 'none' ? localInputToInstant(draft.schedule) : null,
    recurrence: recurrenceOf(draft.recurrence),
  };
}

/** The edit form filled from a scheduled announcement. */
export function draftOfEntry(entry: AnnouncementView): Draft {
  return {
    title: entry.title,
    message: entry.message,
    channelId: entry.channelId,
    priority: entry.priority,
    mentionRoleId: entry.mentionRoleId,
    schedule: entry.scheduleTime ? instantToLocalInput(entry.scheduleTime) : '',
    recurrence: recurrenceDraftOf(entry.recurrence),
  };
}

/** A role to ping: any role but @everyone; one the bot cannot ping says so. */
function PingRolePicker({
  value,
  onChange,
  directory,
  ...ids
}: {
  value: string | null;
  onChange: (value: string | null) => void;
  directory: GuildDirectory | undefined;
  id?: string;
  'aria-describedby'?: string;
}) {
  const options = (directory?.roles ?? [])
    .filter((role) => !role.isEveryone && !role.managed)
    .map((role) => ({
      value: role.id,
      label: `@${role.name}`,
      ...(role.mentionable || directory?.bot.mentionEveryone ? {} : { hint: 'Not pingable: make it mentionable first' }),
    }));
  return (
    <Combobox
      {...ids}
      value={value}
      onChange={onChange}
      options={options}
      allowNone
      placeholder="Nobody"
      searchPlaceholder="Search roles"
      emptyText="No role matches."
    />
  );
}

/** The fields shared by the new-announcement form and the edit dialog. */
export function Fields({
  draft,
  update,
  errors,
  directory,
  withSchedule,
  withRecurrence = false,
}: {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  errors: Record<string, string>;
  directory: GuildDirectory | undefined;
  withSchedule: boolean;
  /** Shows the repeat picker: optional in the new-announcement form (withSchedule), a rule to change when editing a repeating one. */
  withRecurrence?: boolean;
}) {
  const repeats = draft.recurrence.frequency !== 'none';
  return (
    <div className="stack">
      <Field label="Title" error={errors.title}>
        {(ids) => <Input {...ids} value={draft.title} maxLength={256} onChange={(event) => update({ title: event.target.value })} />}
      </Field>
      <Field label="Message" error={errors.message}>
        {(ids) => <Textarea {...ids} rows={5} maxLength={4000} value={draft.message} onChange={(event) => update({ message: event.target.value })} />}
      </Field>
      <div className="form-grid">
        <Field label="Target Channel ID" error={errors.channelId}>
          {(ids) => <ChannelPicker {...ids} value={draft.channelId} onChange={(channelId) => update({ channelId })} directory={directory} allowNone={false} />}
        </Field>
        <Field label="Priority" error={errors.priority}>
          {(ids) => (
            <Select
              id={ids.id}
              options={PRIORITY_OPTIONS}
              value={draft.priority}
              onValueChange={(priority) => update({ priority: priority as AnnouncementPriority })}
            />
          )}
        </Field>
        <Field label="Ping a role" hint="Optional. Nobody else is pinged." error={errors.mentionRoleId}>
          {(ids) => <PingRolePicker {...ids} value={draft.mentionRoleId} onChange={(mentionRoleId) => update({ mentionRoleId })} directory={directory} />}
        </Field>
        {withSchedule && !repeats ? (
          <Field label="Schedule" hint={`Leave empty to send immediately. Your time (${viewerTimeZone()}).`} error={errors.scheduleTime}>
            {(ids) => <Input {...ids} type="datetime-local" value={draft.schedule} onChange={(event) => update({ schedule: event.target.value })} />}
          </Field>
        ) : null}
      </div>
      {withRecurrence ? (
        <RecurrencePicker value={draft.recurrence} onChange={(recurrence) => update({ recurrence })} errors={errors} allowNone={withSchedule} />
      ) : null}
    </div>
  );
}

/** The announcement as it will look in Discord. */
export function Preview({ draft, directory }: { draft: Draft; directory: GuildDirectory | undefined }) {
  const role = directory?.roles.find((candidate) => candidate.id === draft.mentionRoleId);
  const channel = directory?.channels.find((candidate) => candidate.id === draft.channelId);
  return (
    <DiscordPreview
      botName={directory?.bot.name ?? 'AwesomeBot'}
      channelLabel={channel ? `#${channel.name}` : 'No channel picked'}
      content={draft.mentionRoleId ? `<@&${draft.mentionRoleId}>` : undefined}
      roles={role ? { [role.id]: role.name } : {}}
      embeds={[announcementEmbed({ title: draft.title || 'Title', message: draft.message || 'Your message', priority: draft.priority })]}
    />
  );
}
