// Reaction Roles (/server/{serverId}/roles, spec section 2): the add form (message, channel, emoji,
// role, optional role name, and the message's mode), the entries with their mode, switch and
// delete, the usage counted from what the bot did, and what would fail right now.
import { fieldSentence } from '../../../src/shared/field-words';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, ExternalLink, MinusCircle, Plus, SmilePlus, Trash2, Users } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { atLeast } from '../../../src/shared/access';
import {
  REACTION_ROLE_MESSAGES,
  REACTION_ROLE_MODE_LABELS,
  REACTION_ROLE_MODES,
  ReactionRoleSchema,
  ReactionRoleStatsSchema,
  RecentMessageSchema,
  type ReactionRoleInput,
  type ReactionRoleMode,
  type ReactionRoleView,
} from '../../../src/shared/reaction-roles';
import { apiRequest, fieldErrorsOf } from '../../api/client';
import { directoryQuery, guildApi, guildKeys, readGuild, settingsQuery } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { useServerName } from '../../api/queries';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DiagnosticsPanel } from '../../components/diagnostics-panel';
import { ChannelPicker, EmojiPicker, Field, RolePicker } from '../../components/form';
import { PageHeader } from '../../components/page-header';
import { QueryList } from '../../components/query-list';
import { StatCard } from '../../components/stat-card';
import { Badge } from '../../components/ui/badge';
import { Combobox } from '../../components/ui/combobox';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';
import { formatDateTime } from '../../format';
import { toast } from '../../state/toasts';
import { UsageChart } from '../../components/lazy-charts';
import { RoleMenus } from './role-menus';

const keys = {
  list: (guildId: string) => [...guildKeys.all(guildId), 'reaction-roles'] as const,
  stats: (guildId: string) => [...guildKeys.all(guildId), 'reaction-roles', 'stats'] as const,
};

/** The form's names of its fields, for its messages. */
const REACTION_ROLE_LABELS = { messageId: 'Message ID', channelId: 'Channel ID', roleId: 'Role ID' };

const MODE_OPTIONS = REACTION_ROLE_MODES.map((mode) => ({ value: mode, label: REACTION_ROLE_MODE_LABELS[mode].label }));

/** A link to a Discord message: its channel and message ids. */
const MESSAGE_LINK = /\/channels\/\d+\/(\d{15,21})\/(\d{15,21})/;

/** An emoji as the list shows it: the custom emoji's image, or the unicode emoji. */
function EmojiCell({ entry }: { entry: ReactionRoleView }) {
  if (entry.emojiUrl) return <img src={entry.emojiUrl} alt={`:${entry.emoji.split(':')[0] ?? ''}:`} className="emoji-image" />;
  return <span className="emoji-text">{entry.emoji}</span>;
}

/** The channel's last messages, to pick the one to put reaction roles on. */
function RecentMessagePicker({
  guildId,
  channelId,
  value,
  onChange,
  ...ids
}: {
  guildId: string;
  channelId: string;
  value: string;
  onChange: (id: string) => void;
  id?: string;
  'aria-describedby'?: string;
}) {
  const messages = useQuery({
    queryKey: [...keys.list(guildId), 'messages', channelId],
    queryFn: readGuild(guildId, `/reaction-roles/messages?channelId=${encodeURIComponent(channelId)}`, RecentMessageSchema.array()),
  });
  return (
    <Combobox
      {...ids}
      value={messages.data?.some((message) => message.id === value) ? value : null}
      onChange={(id) => onChange(id ?? '')}
      options={(messages.data ?? []).map((message) => ({
        value: message.id,
        label: `${message.author}: ${message.excerpt}`,
        hint: formatDateTime(message.createdAt),
      }))}
      placeholder={messages.isPending ? 'Loading messages…' : messages.isError ? 'Could not read the channel' : 'Pick a message'}
      searchPlaceholder="Search the messages"
      emptyText="No message matches."
      disabled={!messages.data}
    />
  );
}

/** The add form. */
function AddForm({ guildId }: { guildId: string }) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const [form, setForm] = useState({
    messageId: '',
    channelId: null as string | null,
    emoji: null as string | null,
    roleId: null as string | null,
    roleName: '',
    mode: 'normal' as ReactionRoleMode,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useGuildMutation({
    request: async (input: ReactionRoleInput) => ReactionRoleSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/reaction-roles`, input)),
    invalidate: [keys.list(guildId), keys.stats(guildId), guildKeys.diagnostics(guildId)],
    success: (entry) => ({
      title: REACTION_ROLE_MESSAGES.added,
      description: `${entry.emoji} now gives @${entry.roleName ?? entry.roleId}. The bot reacted to the message.`,
    }),
    failure: { title: 'Could not add the reaction role' },
    onSuccess: () => {
      setErrors({});
      setForm((current) => ({ ...current, emoji: null, roleId: null, roleName: '' }));
    },
  });
  const update = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = Object.fromEntries(
      (['messageId', 'channelId', 'emoji', 'roleId'] as const)
        .filter((field) => !String(form[field] ?? '').trim())
        .map((field) => [field, fieldSentence(field, 'is required', REACTION_ROLE_LABELS)]),
    );
    if (Object.keys(missing).length > 0) {
      setErrors(missing);
      toast({ ...REACTION_ROLE_MESSAGES.missing, variant: 'destructive' });
      return;
    }
    add.mutate(
      {
        messageId: form.messageId.trim(),
        channelId: form.channelId ?? '',
        emoji: form.emoji ?? '',
        roleId: form.roleId ?? '',
        roleName: form.roleName.trim() || null,
        mode: form.mode,
      },
      { onError: (error) => setErrors(fieldErrorsOf(error)) },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Add a reaction role</CardTitle>
        <CardDescription>Right-click a message in Discord → Copy Message Link, and paste it as the message: the channel fills in too.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="stack" aria-label="Add a reaction role" noValidate onSubmit={submit}>
          <div className="form-grid">
            <Field label="Message ID" hint="The message's id or link." error={errors.messageId}>
              {(ids) => (
                <Input
                  {...ids}
                  value={form.messageId}
                  placeholder="123456789012345678"
                  onChange={(event) => {
                    const link = MESSAGE_LINK.exec(event.target.value);
                    update(link ? { messageId: link[2] ?? '', channelId: link[1] ?? null } : { messageId: event.target.value });
                  }}
                />
              )}
            </Field>
            <Field label="Channel ID" error={errors.channelId}>
              {(ids) => (
                <ChannelPicker {...ids} value={form.channelId} onChange={(channelId) => update({ channelId })} directory={directory} allowNone={false} />
              )}
            </Field>
            {form.channelId ? (
              <Field label="Recent messages" hint="Or pick one of the channel's last 25 messages.">
                {(ids) => (
                  <RecentMessagePicker
                    {...ids}
                    guildId={guildId}
                    channelId={form.channelId ?? ''}
                    value={form.messageId}
                    onChange={(messageId) => update({ messageId })}
                  />
                )}
              </Field>
            ) : null}
            <Field label="Emoji" error={errors.emoji}>
              {(ids) => <EmojiPicker {...ids} value={form.emoji} onChange={(emoji) => update({ emoji })} directory={directory} />}
            </Field>
            <Field label="Role ID" error={errors.roleId}>
              {(ids) => <RolePicker {...ids} value={form.roleId} onChange={(roleId) => update({ roleId })} directory={directory} allowNone={false} />}
            </Field>
            <Field label="Role Name (optional)" hint="Shown in the list if the role is renamed or deleted." error={errors.roleName}>
              {(ids) => <Input {...ids} value={form.roleName} maxLength={100} onChange={(event) => update({ roleName: event.target.value })} />}
            </Field>
            <Field label="Mode" hint={REACTION_ROLE_MODE_LABELS[form.mode].description} error={errors.mode}>
              {(ids) => (
                <Select
                  id={ids.id}
                  aria-describedby={ids['aria-describedby']}
                  options={MODE_OPTIONS}
                  value={form.mode}
                  onValueChange={(mode) => update({ mode: mode as ReactionRoleMode })}
                />
              )}
            </Field>
          </div>
          <div className="row">
            <Button type="submit" disabled={add.isPending}>
              <Plus size={16} aria-hidden="true" /> {add.isPending ? 'Adding…' : 'Add Reaction Role'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** The entries: emoji, role, where, mode, on/off and delete. */
function EntryList({ guildId, canEdit }: { guildId: string; canEdit: boolean }) {
  const list = useQuery({ queryKey: keys.list(guildId), queryFn: readGuild(guildId, '/reaction-roles', ReactionRoleSchema.array()) });
  const [deleting, setDeleting] = useState<ReactionRoleView | null>(null);
  const invalidate = [keys.list(guildId), keys.stats(guildId), guildKeys.diagnostics(guildId)];
  const patch = useGuildMutation({
    request: async ({ entry, body }: { entry: ReactionRoleView; body: { isActive?: boolean; mode?: ReactionRoleMode } }) =>
      ReactionRoleSchema.parse(await apiRequest('PATCH', `${guildApi(guildId)}/reaction-roles/${entry.id}`, { ...body, baseVersion: entry.version })),
    invalidate,
    success: { title: REACTION_ROLE_MESSAGES.updated },
    failure: { title: 'Could not change the reaction role' },
  });
  const remove = useGuildMutation({
    request: (id: number) => apiRequest('DELETE', `${guildApi(guildId)}/reaction-roles/${id}`),
    invalidate,
    success: { title: REACTION_ROLE_MESSAGES.removed },
    failure: { title: 'Could not delete the reaction role' },
    onSuccess: () => setDeleting(null),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Reaction roles</CardTitle>
        <CardDescription>The mode belongs to the message: changing it changes every role of that message.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryList
          query={list}
          what="the reaction roles"
          empty={{ icon: SmilePlus, title: 'No reaction roles yet', description: 'Add one above: members then pick their role by reacting.' }}
        >
          {(entries) => (
            <div className="table-wrap">
              <table className="table">
                <caption className="sr-only">Reaction roles</caption>
                <thead>
                  <tr>
                    <th scope="col">Emoji</th>
                    <th scope="col">Role</th>
                    <th scope="col">Message</th>
                    <th scope="col">Mode</th>
                    <th scope="col">Active</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((entry) => (
                    <tr key={entry.id}>
                      <td>
                        <EmojiCell entry={entry} />
                      </td>
                      <td>
                        <span className="strong">@{entry.roleName ?? entry.roleId}</span>
                        {entry.inactiveReason ? <p className="error-text small">{entry.inactiveReason}</p> : null}
                      </td>
                      <td>
                        <a href={entry.messageUrl} target="_blank" rel="noreferrer" className="small">
                          {entry.channelName ? `#${entry.channelName}` : 'Message'} <ExternalLink size={12} aria-hidden="true" />
                        </a>
                      </td>
                      <td>
                        <Select
                          aria-label={`Mode of ${entry.emoji} → @${entry.roleName ?? entry.roleId}`}
                          options={MODE_OPTIONS}
                          value={entry.mode}
                          disabled={!canEdit || patch.isPending}
                          onValueChange={(mode) => patch.mutate({ entry, body: { mode: mode as ReactionRoleMode } })}
                        />
                      </td>
                      <td>
                        <Switch
                          aria-label={`${entry.emoji} → @${entry.roleName ?? entry.roleId} active`}
                          checked={entry.isActive}
                          disabled={!canEdit || patch.isPending}
                          onCheckedChange={(isActive) => patch.mutate({ entry, body: { isActive } })}
                        />
                      </td>
                      <td>
                        {canEdit ? (
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Delete ${entry.emoji} → @${entry.roleName ?? entry.roleId}`}
                            onClick={() => setDeleting(entry)}
                          >
                            <Trash2 size={16} aria-hidden="true" />
                          </Button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryList>
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this reaction role?"
        description={
          `${deleting?.emoji ?? ''} will stop giving @${deleting?.roleName ?? deleting?.roleId ?? ''}, and the bot takes its reaction off ` +
          `the message. Members keep roles they already have.`
        }
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </Card>
  );
}

/** The usage of the last 30 days. */
function Usage({ guildId }: { guildId: string }) {
  const stats = useQuery({ queryKey: keys.stats(guildId), queryFn: readGuild(guildId, '/reaction-roles/stats', ReactionRoleStatsSchema) });
  const data = stats.data;
  return (
    <>
      <div className="grid grid-stats">
        <StatCard label="Roles Given" value={data?.assignments} icon={CheckCircle2} tone="success" hint="Last 30 days" />
        <StatCard label="Roles Taken" value={data?.removals} icon={MinusCircle} tone="info" hint="Last 30 days" />
        <StatCard label="Active Roles" value={data?.activeEntries} icon={Users} />
        <StatCard
          label="Success Rate"
          value={data ? (data.successRate === null ? '—' : `${data.successRate}%`) : undefined}
          icon={SmilePlus}
          tone="warning"
          hint={data?.successRate === null ? 'No reactions yet' : 'Of every attempt'}
        />
      </div>
      {data && (data.assignments > 0 || data.removals > 0 || data.failures.length > 0) ? (
        <Card>
          <CardHeader>
            <CardTitle>Usage</CardTitle>
            <CardDescription>Roles given and taken per day, last 30 days.</CardDescription>
          </CardHeader>
          <CardContent className="stack">
            <UsageChart daily={data.daily} />
            {data.failures.length > 0 ? (
              <ul className="problem-list" aria-label="Why some attempts failed">
                {data.failures.map((failure) => (
                  <li key={failure.reason} className="notice notice-warning">
                    <Badge tone="warning">{failure.count}×</Badge> {failure.reason}
                  </li>
                ))}
              </ul>
            ) : null}
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}

/** The Reaction Roles page. */
export default function ReactionRolesPage() {
  const { serverId = '' } = useParams();
  const serverName = useServerName(serverId);
  const settings = useQuery(settingsQuery(serverId));
  const canEdit = settings.data ? atLeast(settings.data.access, 'edit') : false;
  return (
    <>
      <PageHeader title="Reaction Roles" serverName={serverName} description="Members pick their own roles by reacting to a message." />
      <Usage guildId={serverId} />
      <div className="grid grid-2-1 align-start">
        <div className="stack">
          {canEdit ? <AddForm guildId={serverId} /> : null}
          <EntryList guildId={serverId} canEdit={canEdit} />
          <RoleMenus guildId={serverId} canEdit={canEdit} />
        </div>
        <DiagnosticsPanel guildId={serverId} features="reactionRoles" />
      </div>
    </>
  );
}
