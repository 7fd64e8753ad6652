// Announcements (/server/{serverId}/announcements, spec section 2): the form (title, message, target
// channel, priority, an optional role to ping, an optional schedule in the viewer's time zone) with
// a live preview, Send Now or Schedule Announcement, and Recent Announcements: the real history,
// paged, with edit and cancel for what is still scheduled.
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, Megaphone, Pencil, Send, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { atLeast } from '../../../src/shared/access';
import {
  ANNOUNCEMENT_MESSAGES,
  ANNOUNCEMENT_PRIORITIES,
  AnnouncementPageSchema,
  AnnouncementSchema,
  announcementEmbed,
  PRIORITY_STYLE,
  type AnnouncementPriority,
  type AnnouncementView,
} from '../../../src/shared/announcements';
import type { GuildDirectory } from '../../../src/shared/servers';
import { ApiRequestError, apiRequest, errorMessage } from '../../api/client';
import { directoryQuery, guildApi, guildKeys, readGuild, settingsQuery } from '../../api/guild';
import { changedOnly } from '../../api/changes';
import { useGuildMutation } from '../../api/mutations';
import { useServerName } from '../../api/queries';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DiagnosticsPanel } from '../../components/diagnostics-panel';
import { DiscordPreview } from '../../components/discord-preview';
import { ChannelPicker, Field } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { QueryList } from '../../components/query-list';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Pager } from '../../components/pager';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Combobox } from '../../components/ui/combobox';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Textarea } from '../../components/ui/textarea';
import { formatDateTime, instantToLocalInput, localInputToInstant, viewerTimeZone } from '../../format';

const PAGE_SIZE = 10;
const keys = {
  list: (guildId: string, page: number) => [...guildKeys.all(guildId), 'announcements', page] as const,
  all: (guildId: string) => [...guildKeys.all(guildId), 'announcements'] as const,
};
const PRIORITY_OPTIONS = ANNOUNCEMENT_PRIORITIES.map((priority) => ({ value: priority, label: PRIORITY_STYLE[priority].label }));

/** The form's fields; the schedule as the datetime-local input holds it (the viewer's wall clock). */
interface Draft {
  title: string;
  message: string;
  channelId: string | null;
  priority: AnnouncementPriority;
  mentionRoleId: string | null;
  schedule: string;
}

const EMPTY: Draft = { title: '', message: '', channelId: null, priority: 'normal', mentionRoleId: null, schedule: '' };

/** The body the API takes. */
function bodyOf(draft: Draft) {
  return {
    title: draft.title,
    message: draft.message,
    channelId: draft.channelId ?? '',
    priority: draft.priority,
    mentionRoleId: draft.mentionRoleId,
    scheduleTime: localInputToInstant(draft.schedule),
  };
}

/** The edit form filled from a scheduled announcement. */
function draftOfEntry(entry: AnnouncementView): Draft {
  return {
    title: entry.title,
    message: entry.message,
    channelId: entry.channelId,
    priority: entry.priority,
    mentionRoleId: entry.mentionRoleId,
    schedule: entry.scheduleTime ? instantToLocalInput(entry.scheduleTime) : '',
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
function Fields({
  draft,
  update,
  errors,
  directory,
  withSchedule,
}: {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  errors: Record<string, string>;
  directory: GuildDirectory | undefined;
  withSchedule: boolean;
}) {
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
        {withSchedule ? (
          <Field label="Schedule" hint={`Leave empty to send immediately. Your time (${viewerTimeZone()}).`} error={errors.scheduleTime}>
            {(ids) => <Input {...ids} type="datetime-local" value={draft.schedule} onChange={(event) => update({ schedule: event.target.value })} />}
          </Field>
        ) : null}
      </div>
    </div>
  );
}

/** The announcement as it will look in Discord. */
function Preview({ draft, directory }: { draft: Draft; directory: GuildDirectory | undefined }) {
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

const STATUS_TONES: Record<AnnouncementView['status'], BadgeTone> = {
  sent: 'success',
  scheduled: 'brand',
  failed: 'danger',
  cancelled: 'neutral',
  missed: 'warning',
};
const STATUS_LABELS: Record<AnnouncementView['status'], string> = {
  sent: 'Sent',
  scheduled: 'Scheduled',
  failed: 'Failed',
  cancelled: 'Cancelled',
  missed: 'Missed',
};

/** Recent Announcements, newest first, paged; scheduled ones can be edited or cancelled. */
function History({ guildId, canEdit, directory }: { guildId: string; canEdit: boolean; directory: GuildDirectory | undefined }) {
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ entry: AnnouncementView; draft: Draft } | null>(null);
  const [cancelling, setCancelling] = useState<AnnouncementView | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const list = useQuery({
    queryKey: keys.list(guildId, page),
    queryFn: readGuild(guildId, `/announcements?page=${page}&pageSize=${PAGE_SIZE}`, AnnouncementPageSchema),
  });
  const invalidate = [keys.all(guildId), guildKeys.diagnostics(guildId)];
  const edit = useGuildMutation({
    request: async ({ entry, draft }: { entry: AnnouncementView; draft: Draft }) => {
      // Only what the person changed, over the version they opened (a colleague's other changes stay).
      const { scheduleTime, ...rest } = changedOnly(bodyOf(draft), bodyOf(draftOfEntry(entry)));
      return AnnouncementSchema.parse(
        await apiRequest('PATCH', `${guildApi(guildId)}/announcements/${entry.id}`, {
          ...rest,
          ...(scheduleTime ? { scheduleTime } : {}),
          baseVersion: entry.version,
        }),
      );
    },
    invalidate,
    success: { title: ANNOUNCEMENT_MESSAGES.updated },
    failure: { title: 'Could not change the announcement' },
    onSuccess: () => {
      setEditing(null);
      setErrors({});
    },
    onReload: () => {
      setEditing(null);
      setErrors({});
    },
  });
  const cancel = useGuildMutation({
    request: async (id: number) => AnnouncementSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/announcements/${id}/cancel`)),
    invalidate,
    success: { title: ANNOUNCEMENT_MESSAGES.cancelled },
    failure: { title: 'Could not cancel the announcement' },
    onSuccess: () => setCancelling(null),
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Announcements</CardTitle>
        <CardDescription>Sent, scheduled, failed, cancelled and missed, newest first. Times are yours ({viewerTimeZone()}).</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryList
          query={{ ...list, data: list.data?.entries }}
          what="the announcements"
          rowHeight="3rem"
          empty={{ icon: Megaphone, title: ANNOUNCEMENT_MESSAGES.empty, description: 'Send or schedule one above.' }}
        >
          {(entries) => (
            <ul className="history-list" aria-label="Recent announcements">
              {entries.map((entry) => (
                <li key={entry.id} className="history-item">
                  <div className="history-head">
                    <span className="strong">{entry.title}</span>
                    <Badge tone={STATUS_TONES[entry.status]}>{STATUS_LABELS[entry.status]}</Badge>
                    {entry.late ? <Badge tone="warning">Sent late</Badge> : null}
                    {entry.priority !== 'normal' ? (
                      <Badge tone={entry.priority === 'urgent' ? 'danger' : 'neutral'}>{PRIORITY_STYLE[entry.priority].label}</Badge>
                    ) : null}
                  </div>
                  <p className="muted small">
                    {entry.channelName ? `#${entry.channelName}` : 'A deleted channel'} · {entry.createdBy.name ?? 'someone'} ·{' '}
                    {entry.status === 'scheduled' && entry.scheduleTime ? (
                      <>
                        for <time dateTime={entry.scheduleTime}>{formatDateTime(entry.scheduleTime)}</time>
                      </>
                    ) : entry.sentAt ? (
                      <time dateTime={entry.sentAt}>{formatDateTime(entry.sentAt)}</time>
                    ) : (
                      <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                    )}
                  </p>
                  {entry.error ? <p className="error-text small">{entry.error}</p> : null}
                  <div className="row">
                    {entry.messageUrl ? (
                      <a href={entry.messageUrl} target="_blank" rel="noreferrer" className="small">
                        Open <ExternalLink size={12} aria-hidden="true" />
                      </a>
                    ) : null}
                    {canEdit && entry.status === 'scheduled' ? (
                      <>
                        <Button variant="ghost" size="sm" aria-label={`Edit ${entry.title}`} onClick={() => setEditing({ entry, draft: draftOfEntry(entry) })}>
                          <Pencil size={14} aria-hidden="true" /> Edit
                        </Button>
                        <Button variant="ghost" size="sm" aria-label={`Cancel ${entry.title}`} onClick={() => setCancelling(entry)}>
                          <XCircle size={14} aria-hidden="true" /> Cancel
                        </Button>
                      </>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </QueryList>
      </CardContent>
      {pages > 1 ? (
        <CardContent>
          <Pager page={page} pages={pages} onPage={setPage} label="Pages of the announcement history" words={['Newer', 'Older']} />
        </CardContent>
      ) : null}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent title="Edit the scheduled announcement" description="Change it before it is sent.">
          {editing ? (
            <form
              className="stack"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                edit.mutate(
                  { entry: editing.entry, draft: editing.draft },
                  { onError: (error) => setErrors(error instanceof ApiRequestError ? (error.body?.fields ?? {}) : {}) },
                );
              }}
            >
              <Fields
                draft={editing.draft}
                update={(patch) => setEditing({ ...editing, draft: { ...editing.draft, ...patch } })}
                errors={errors}
                directory={directory}
                withSchedule
              />
              <div className="dialog-actions">
                <Button variant="outline" onClick={() => setEditing(null)}>
                  Back
                </Button>
                <Button type="submit" disabled={edit.isPending}>
                  {edit.isPending ? 'Saving…' : 'Save changes'}
                </Button>
              </div>
            </form>
          ) : null}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => !open && setCancelling(null)}
        title="Cancel this announcement?"
        description={`"${cancelling?.title ?? ''}" will not be sent. It stays in the history as cancelled.`}
        confirmLabel="Cancel announcement"
        pending={cancel.isPending}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id)}
      />
    </Card>
  );
}

/** The new-announcement form with its preview. */
function Composer({ guildId, directory }: { guildId: string; directory: GuildDirectory | undefined }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const scheduled = Boolean(draft.schedule);
  const send = useGuildMutation({
    request: async (body: ReturnType<typeof bodyOf>) => AnnouncementSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/announcements`, body)),
    invalidate: [keys.all(guildId), guildKeys.diagnostics(guildId)],
    success: (sent) =>
      sent.status === 'scheduled' && sent.scheduleTime
        ? { title: ANNOUNCEMENT_MESSAGES.scheduled, description: `It will be sent ${formatDateTime(sent.scheduleTime)}.` }
        : ANNOUNCEMENT_MESSAGES.sent,
    failure: (error) => ({ ...ANNOUNCEMENT_MESSAGES.failed, description: `${ANNOUNCEMENT_MESSAGES.failed.description} ${errorMessage(error)}` }),
    onSuccess: () => {
      setDraft(EMPTY);
      setErrors({});
    },
  });
  const ready = draft.title.trim() !== '' && draft.message.trim() !== '' && draft.channelId !== null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    send.mutate(bodyOf(draft), { onError: (error) => setErrors(error instanceof ApiRequestError ? (error.body?.fields ?? {}) : {}) });
  };
  return (
    <div className="grid grid-2 align-start">
      <Card>
        <CardHeader>
          <CardTitle>New announcement</CardTitle>
          <CardDescription>Posted by the bot as an embed. Nobody is pinged unless you pick a role.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="stack" aria-label="New announcement" noValidate onSubmit={submit}>
            <Fields draft={draft} update={update} errors={errors} directory={directory} withSchedule />
            <div className="row">
              <Button type="submit" disabled={!ready || send.isPending}>
                <Send size={16} aria-hidden="true" /> {send.isPending ? 'Sending…' : scheduled ? 'Schedule Announcement' : 'Send Now'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <div className="stack">
        <Card>
          <CardHeader>
            <CardTitle>Preview</CardTitle>
            <CardDescription>
              {PRIORITY_STYLE[draft.priority].banner
                ? `${PRIORITY_STYLE[draft.priority].label} priority: a banner above the title.`
                : 'Normal priority: no banner.'}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Preview draft={draft} directory={directory} />
          </CardContent>
        </Card>
        <DiagnosticsPanel guildId={guildId} features="announcements" />
      </div>
    </div>
  );
}

/** The Announcements page. */
export default function AnnouncementsPage() {
  const { serverId = '' } = useParams();
  const serverName = useServerName(serverId);
  const settings = useQuery(settingsQuery(serverId));
  const directory = useQuery(directoryQuery(serverId)).data;
  const canEdit = settings.data ? atLeast(settings.data.access, 'edit') : false;
  return (
    <>
      <PageHeader
        title="Announcements"
        serverName={serverName}
        description="Send an announcement now, or schedule it; the bot posts it even if it restarts in between."
      />
      {canEdit ? <Composer guildId={serverId} directory={directory} /> : null}
      <History guildId={serverId} canEdit={canEdit} directory={directory} />
    </>
  );
}
