// Announcements (/server/{serverId}/announcements, spec section 2): the form (title, message, target
// channel, priority, an optional role to ping, an optional schedule in the viewer's time zone) with
// a live preview, Send Now or Schedule Announcement, and Recent Announcements: the real history,
// paged, with edit and cancel for what is still scheduled. Repeating announcements (daily, weekly,
// monthly, in a chosen time zone) and editing a sent message in place: recurrence-picker.tsx and
// edit-message-dialog.tsx.
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, Megaphone, Pencil, Repeat, Send, SquarePen, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { atLeast } from '../../../src/shared/access';
import { ANNOUNCEMENT_MESSAGES, AnnouncementPageSchema, AnnouncementSchema, PRIORITY_STYLE, type AnnouncementView } from '../../../src/shared/announcements';
import { describeRecurrence } from '../../../src/shared/recurrence';
import type { GuildDirectory } from '../../../src/shared/servers';
import { apiRequest, errorMessage, fieldErrorsOf, isRetryable } from '../../api/client';
import { directoryQuery, guildApi, guildKeys, readGuild, settingsQuery } from '../../api/guild';
import { changedOnly } from '../../api/changes';
import { useGuildMutation } from '../../api/mutations';
import { useUnsavedChanges } from '../../state/unsaved';
import { useServerName } from '../../api/queries';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DiagnosticsPanel } from '../../components/diagnostics-panel';
import { PageHeader } from '../../components/page-header';
import { QueryList } from '../../components/query-list';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Pager } from '../../components/pager';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { formatDateTime, viewerTimeZone } from '../../format';
import { bodyOf, draftOfEntry, emptyDraft, Fields, Preview, type Draft } from './fields';
import { EditMessageDialog } from './edit-message-dialog';

const PAGE_SIZE = 10;
const keys = {
  list: (guildId: string, page: number) => [...guildKeys.all(guildId), 'announcements', page] as const,
  all: (guildId: string) => [...guildKeys.all(guildId), 'announcements'] as const,
};

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
  const [editingMessage, setEditingMessage] = useState<AnnouncementView | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useUnsavedChanges(editing !== null && JSON.stringify(editing.draft) !== JSON.stringify(draftOfEntry(editing.entry)));
  const list = useQuery({
    queryKey: keys.list(guildId, page),
    queryFn: readGuild(guildId, `/announcements?page=${page}&pageSize=${PAGE_SIZE}`, AnnouncementPageSchema),
  });
  const invalidate = [keys.all(guildId), guildKeys.diagnostics(guildId)];
  const edit = useGuildMutation({
    request: async ({ entry, draft }: { entry: AnnouncementView; draft: Draft }) => {
      // Only what the person changed, over the version they opened (a colleague's other changes stay).
      // A repeating one's rule can change (not be removed: cancel it instead); a one-off stays one.
      const { scheduleTime, recurrence, ...rest } = changedOnly(bodyOf(draft), bodyOf(draftOfEntry(entry)));
      return AnnouncementSchema.parse(
        await apiRequest('PATCH', `${guildApi(guildId)}/announcements/${entry.id}`, {
          ...rest,
          ...(scheduleTime ? { scheduleTime } : {}),
          ...(entry.recurrence && recurrence ? { recurrence } : {}),
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
                    {entry.recurrence ? (
                      <Badge tone="neutral">
                        <Repeat size={12} aria-hidden="true" /> Repeats
                      </Badge>
                    ) : null}
                    {entry.priority !== 'normal' ? (
                      <Badge tone={entry.priority === 'urgent' ? 'danger' : 'neutral'}>{PRIORITY_STYLE[entry.priority].label}</Badge>
                    ) : null}
                  </div>
                  <p className="muted small">
                    {entry.channelName ? `#${entry.channelName}` : 'A deleted channel'} · {entry.createdBy.name ?? 'someone'} ·{' '}
                    {entry.status === 'scheduled' && entry.scheduleTime ? (
                      <>
                        {entry.recurrence ? 'next ' : ''}for <time dateTime={entry.scheduleTime}>{formatDateTime(entry.scheduleTime)}</time>
                      </>
                    ) : entry.sentAt ? (
                      <time dateTime={entry.sentAt}>{formatDateTime(entry.sentAt)}</time>
                    ) : (
                      <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                    )}
                  </p>
                  {entry.recurrence ? (
                    <p className="muted small">
                      {describeRecurrence(entry.recurrence)}. Sent {entry.sendCount} time{entry.sendCount === 1 ? '' : 's'}.
                    </p>
                  ) : null}
                  {entry.editedAt ? <p className="muted small">Message edited {formatDateTime(entry.editedAt)}.</p> : null}
                  {entry.error ? <p className="error-text small">{entry.error}</p> : null}
                  <div className="row">
                    {entry.messageUrl ? (
                      <a href={entry.messageUrl} target="_blank" rel="noreferrer" className="small">
                        Open <ExternalLink size={12} aria-hidden="true" />
                      </a>
                    ) : null}
                    {canEdit && entry.canEditMessage ? (
                      <Button variant="ghost" size="sm" aria-label={`Edit the message of ${entry.title}`} onClick={() => setEditingMessage(entry)}>
                        <SquarePen size={14} aria-hidden="true" /> Edit message
                      </Button>
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
                edit.mutate({ entry: editing.entry, draft: editing.draft }, { onError: (error) => setErrors(fieldErrorsOf(error)) });
              }}
            >
              <Fields
                draft={editing.draft}
                update={(patch) => setEditing({ ...editing, draft: { ...editing.draft, ...patch } })}
                errors={errors}
                directory={directory}
                withSchedule={!editing.entry.recurrence}
                withRecurrence={Boolean(editing.entry.recurrence)}
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
      <EditMessageDialog guildId={guildId} entry={editingMessage} directory={directory} invalidate={invalidate} onClose={() => setEditingMessage(null)} />
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => !open && setCancelling(null)}
        title="Cancel this announcement?"
        description={`"${cancelling?.title ?? ''}" will not be sent${cancelling?.recurrence ? ' again' : ''}. It stays in the history as cancelled.`}
        confirmLabel="Cancel announcement"
        pending={cancel.isPending}
        onConfirm={() => cancelling && cancel.mutate(cancelling.id)}
      />
    </Card>
  );
}

/** The new-announcement form with its preview. */
function Composer({ guildId, directory }: { guildId: string; directory: GuildDirectory | undefined }) {
  const [blank, setBlank] = useState<Draft>(emptyDraft);
  const [draft, setDraft] = useState<Draft>(blank);
  useUnsavedChanges(JSON.stringify(draft) !== JSON.stringify(blank));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const repeats = draft.recurrence.frequency !== 'none';
  const scheduled = Boolean(draft.schedule) || repeats;
  const send = useGuildMutation({
    request: async (body: ReturnType<typeof bodyOf>) => AnnouncementSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/announcements`, body)),
    invalidate: [keys.all(guildId), guildKeys.diagnostics(guildId)],
    success: (sent) =>
      sent.status === 'scheduled' && sent.scheduleTime
        ? {
            title: ANNOUNCEMENT_MESSAGES.scheduled,
            description: `${sent.recurrence ? `${describeRecurrence(sent.recurrence)}. First` : 'It will be sent'} ${formatDateTime(sent.scheduleTime)}.`,
          }
        : ANNOUNCEMENT_MESSAGES.sent,
    // A refusal (4xx) is the server's sentence alone: sending it again would be refused again.
    failure: (error) => ({
      ...ANNOUNCEMENT_MESSAGES.failed,
      description: isRetryable(error) ? `${ANNOUNCEMENT_MESSAGES.failed.description} ${errorMessage(error)}` : errorMessage(error),
    }),
    onSuccess: () => {
      const next = emptyDraft();
      setBlank(next);
      setDraft(next);
      setErrors({});
    },
  });
  const ready = draft.title.trim() !== '' && draft.message.trim() !== '' && draft.channelId !== null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    send.mutate(bodyOf(draft), { onError: (error) => setErrors(fieldErrorsOf(error)) });
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
            <Fields draft={draft} update={update} errors={errors} directory={directory} withSchedule withRecurrence />
            <div className="row">
              <Button type="submit" disabled={!ready || send.isPending}>
                <Send size={16} aria-hidden="true" />{' '}
                {send.isPending ? 'Sending…' : repeats ? 'Schedule repeating announcement' : scheduled ? 'Schedule Announcement' : 'Send Now'}
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
