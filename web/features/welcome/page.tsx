// Welcome System (/server/{serverId}/welcome, spec section 2): the switch, the channel, the message
// with its placeholders and a live preview, the join DM, Save Settings and Test Message, Recent
// Welcome Messages, and what would fail right now.
import { useQuery } from '@tanstack/react-query';
import { ExternalLink, HandHeart, Send } from 'lucide-react';
import { useRef } from 'react';
import type { SettingsView } from '../../../src/shared/settings';
import {
  longestWelcome,
  MESSAGE_MAX,
  renderWelcome,
  WELCOME_MESSAGES,
  welcomeChannelProblem,
  WELCOME_MISSING_CHANNEL,
  WELCOME_PLACEHOLDERS,
  WelcomeLogEntrySchema,
  WelcomeTestResultSchema,
  type WelcomeLogEntry,
} from '../../../src/shared/welcome';
import { apiRequest } from '../../api/client';
import { directoryQuery, guildApi, guildKeys, readGuild } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { useCurrentUser, useServers } from '../../api/queries';
import { useSettingsForm } from '../../api/settings-form';
import { DiagnosticsPanel } from '../../components/diagnostics-panel';
import { DiscordPreview } from '../../components/discord-preview';
import { QueryList } from '../../components/query-list';
import { ChannelPicker, Field, SwitchRow } from '../../components/form';
import { SaveBar, SettingsForm, SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Textarea } from '../../components/ui/textarea';
import { formatDateTime } from '../../format';
import { GOODBYE_MISSING_CHANNEL, GOODBYE_PLACEHOLDERS, unknownPlaceholderProblem } from '../../../src/shared/welcome-card';
import { GoodbyeCard, WelcomeCardCard, type CardDraft } from './card-section';

/** The page's fields. */
interface Draft extends CardDraft {
  welcomeEnabled: boolean;
  welcomeChannelId: string | null;
  welcomeMessage: string;
  welcomeDmEnabled: boolean;
  welcomeDmMessage: string;
}

const draftOf = (view: SettingsView): Draft => ({
  welcomeEnabled: view.welcomeEnabled,
  welcomeChannelId: view.welcomeChannelId,
  welcomeMessage: view.welcomeMessage,
  welcomeDmEnabled: view.welcomeDmEnabled,
  welcomeDmMessage: view.welcomeDmMessage,
  goodbyeEnabled: view.goodbyeEnabled,
  goodbyeChannelId: view.goodbyeChannelId,
  goodbyeMessage: view.goodbyeMessage,
  welcomeCardEnabled: view.welcomeCardEnabled,
  welcomeCardTitle: view.welcomeCardTitle,
  welcomeCardBackground: view.welcomeCardBackground,
  welcomeCardAccent: view.welcomeCardAccent,
});
const bodyOf = (draft: Draft) => ({ ...draft });

const recentKey = (guildId: string) => [...guildKeys.all(guildId), 'welcome', 'recent'] as const;

/** A textarea with placeholder chips that insert at the cursor, and the length once filled in. */
function TemplateField({
  label,
  value,
  onChange,
  serverName,
  error,
  disabled,
  placeholders = WELCOME_PLACEHOLDERS,
}: {
  placeholders?: readonly { token: string; meaning: string }[];
  label: string;
  value: string;
  onChange: (value: string) => void;
  serverName: string;
  error?: string;
  disabled: boolean;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const longest = longestWelcome(value, serverName);
  const insert = (token: string) => {
    const element = area.current;
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    onChange(`${value.slice(0, start)}${token}${value.slice(end)}`);
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  return (
    <Field
      label={label}
      error={error}
      hint={
        <span className={longest > MESSAGE_MAX ? 'error-text' : undefined}>
          Up to {longest.toLocaleString()} of {MESSAGE_MAX.toLocaleString()} characters once filled in.
        </span>
      }
    >
      {(ids) => (
        <div className="stack-sm">
          <Textarea {...ids} ref={area} value={value} maxLength={MESSAGE_MAX} rows={4} onChange={(event) => onChange(event.target.value)} disabled={disabled} />
          <div className="chip-row" role="group" aria-label={`Insert into ${label.toLowerCase()}`}>
            {placeholders.map((placeholder) => (
              <button
                key={placeholder.token}
                type="button"
                className="chip chip-button"
                title={placeholder.meaning}
                onClick={() => insert(placeholder.token)}
                disabled={disabled}
              >
                {placeholder.token}
              </button>
            ))}
          </div>
        </div>
      )}
    </Field>
  );
}

const SOURCE_LABELS: Record<WelcomeLogEntry['source'], string> = { join: 'Joined', catchup: 'Joined while the bot was offline', test: 'Test Message' };
const DM_LABELS: Record<WelcomeLogEntry['dm'], string | null> = { sent: 'DM sent', closed: 'DMs closed', failed: 'DM failed', off: null };

/** Recent Welcome Messages: the last 20 welcomes, sent or failed with the reason. */
function RecentWelcomes({ guildId }: { guildId: string }) {
  const recent = useQuery({ queryKey: recentKey(guildId), queryFn: readGuild(guildId, '/welcome/recent', WelcomeLogEntrySchema.array()) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Welcome Messages</CardTitle>
        <CardDescription>The last 20 welcomes the bot sent, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryList
          query={recent}
          what="the recent welcomes"
          empty={{ icon: HandHeart, title: 'No welcome messages yet', description: 'When members join, their welcomes show here. Try Test Message.' }}
        >
          {(entries) => (
            <ul className="history-list" aria-label="Recent welcome messages">
              {entries.map((entry) => (
                <li key={entry.id} className="history-item">
                  <div className="history-head">
                    <span className="strong">{entry.username}</span>
                    <Badge tone={entry.status === 'sent' ? 'success' : entry.status === 'failed' ? 'danger' : 'neutral'}>
                      {entry.status === 'sent' ? 'Sent' : entry.status === 'failed' ? 'Failed' : 'Sending'}
                    </Badge>
                    {DM_LABELS[entry.dm] ? <Badge tone={entry.dm === 'sent' ? 'brand' : 'warning'}>{DM_LABELS[entry.dm]}</Badge> : null}
                    <span className="muted small">
                      {SOURCE_LABELS[entry.source]} · <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
                    </span>
                    {entry.url ? (
                      <a href={entry.url} target="_blank" rel="noreferrer" className="small">
                        Open <ExternalLink size={12} aria-hidden="true" />
                      </a>
                    ) : null}
                  </div>
                  {entry.error ? <p className="error-text small">{entry.error}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </QueryList>
      </CardContent>
    </Card>
  );
}

/** The form, the preview and the lists, once the settings have loaded. */
function WelcomeBody({ guildId, view, serverName, readOnly }: SettingsBodyProps) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const me = useCurrentUser().data;
  const form = useSettingsForm({
    guildId,
    view,
    draftOf,
    bodyOf,
    success: WELCOME_MESSAGES.saved,
    failure: WELCOME_MESSAGES.failed,
    precheck: (draft): { notice: { title: string; description: string }; fields: Record<string, string> } | null => {
      const problem = welcomeChannelProblem(draft);
      if (problem) return { notice: WELCOME_MISSING_CHANNEL, fields: { welcomeChannelId: problem } };
      const goodbye = draft.goodbyeEnabled && !draft.goodbyeChannelId ? GOODBYE_MISSING_CHANNEL : null;
      const goodbyeText = unknownPlaceholderProblem(draft.goodbyeMessage, GOODBYE_PLACEHOLDERS);
      if (goodbye) return { notice: { title: 'Missing Channel', description: goodbye }, fields: { goodbyeChannelId: goodbye } };
      if (goodbyeText) return { notice: { title: 'Unknown placeholder', description: `${goodbyeText}.` }, fields: { goodbyeMessage: `${goodbyeText}.` } };
      return null;
    },
  });
  const { draft, update, errors } = form;
  const test = useGuildMutation({
    request: async () =>
      WelcomeTestResultSchema.parse(
        await apiRequest('POST', `${guildApi(guildId)}/welcome/test`, { welcomeChannelId: draft.welcomeChannelId, welcomeMessage: draft.welcomeMessage }),
      ),
    invalidate: [recentKey(guildId)],
    success: (result) => ({
      title: 'Test Message Sent',
      description: `Posted in #${directory?.channels.find((channel) => channel.id === result.channelId)?.name ?? 'the welcome channel'}.`,
      action: { label: 'Open', altText: 'Open the test message in Discord', onClick: () => window.open(result.url, '_blank', 'noopener') },
    }),
    failure: { title: 'Test Message Failed' },
  });
  const channelName = directory?.channels.find((channel) => channel.id === draft.welcomeChannelId)?.name;
  const memberCount = useServers().data?.find((server) => server.id === guildId)?.memberCount ?? 0;
  const values = { userId: me?.discordId ?? '0', username: me?.username ?? 'you', server: serverName || 'this server', memberCount: (memberCount ?? 0) + 1 };
  const preview = renderWelcome(draft.welcomeMessage, values);
  const users = { [values.userId]: values.username };
  const cardProps = { guildId, draft, update, errors, directory, readOnly };

  return (
    <SettingsForm label="Welcome settings" onSave={form.save}>
      <div className="grid grid-2">
        <div className="stack">
          <Card>
            <CardHeader>
              <CardTitle>Welcome message</CardTitle>
              <CardDescription>Posted when a member joins. Only the new member is pinged, whatever the message says.</CardDescription>
            </CardHeader>
            <CardContent className="stack">
              <SwitchRow
                label="Enable welcome messages"
                checked={draft.welcomeEnabled}
                onChange={(welcomeEnabled) => update({ welcomeEnabled })}
                disabled={readOnly}
              />
              <Field label="Channel ID" error={errors.welcomeChannelId}>
                {(ids) => (
                  <ChannelPicker
                    {...ids}
                    value={draft.welcomeChannelId}
                    onChange={(welcomeChannelId) => update({ welcomeChannelId })}
                    directory={directory}
                    disabled={readOnly}
                  />
                )}
              </Field>
              <TemplateField
                label="Message"
                value={draft.welcomeMessage}
                onChange={(welcomeMessage) => update({ welcomeMessage })}
                serverName={serverName}
                error={errors.welcomeMessage}
                disabled={readOnly}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Join DM</CardTitle>
              <CardDescription>
                Also send the new member a direct message. Members who do not accept DMs are noted, and still welcomed in the channel.
              </CardDescription>
            </CardHeader>
            <CardContent className="stack">
              <SwitchRow
                label="Send a direct message"
                checked={draft.welcomeDmEnabled}
                onChange={(welcomeDmEnabled) => update({ welcomeDmEnabled })}
                disabled={readOnly}
              />
              <TemplateField
                label="Direct message"
                value={draft.welcomeDmMessage}
                onChange={(welcomeDmMessage) => update({ welcomeDmMessage })}
                serverName={serverName}
                error={errors.welcomeDmMessage}
                disabled={readOnly || !draft.welcomeDmEnabled}
              />
            </CardContent>
          </Card>
          <GoodbyeCard
            {...cardProps}
            goodbyeField={
              <TemplateField
                label="Goodbye message"
                value={draft.goodbyeMessage}
                onChange={(goodbyeMessage) => update({ goodbyeMessage })}
                serverName={serverName}
                error={errors.goodbyeMessage}
                disabled={readOnly}
                placeholders={GOODBYE_PLACEHOLDERS}
              />
            }
          />
        </div>
        <div className="stack">
          <Card>
            <CardHeader>
              <CardTitle>Preview</CardTitle>
              <CardDescription>As if you had just joined, with the placeholders filled in.</CardDescription>
            </CardHeader>
            <CardContent className="stack">
              <DiscordPreview
                botName={directory?.bot.name ?? 'AwesomeBot'}
                content={preview}
                users={users}
                channelLabel={channelName ? `#${channelName}` : 'No channel picked'}
              />
              {draft.welcomeDmEnabled ? (
                <DiscordPreview
                  botName={directory?.bot.name ?? 'AwesomeBot'}
                  content={renderWelcome(draft.welcomeDmMessage, values)}
                  users={users}
                  channelLabel="Direct message"
                />
              ) : null}
            </CardContent>
          </Card>
          <WelcomeCardCard {...cardProps} goodbyeField={null} />
          <DiagnosticsPanel guildId={guildId} features="welcome" />
        </div>
      </div>
      {readOnly ? null : (
        <SaveBar
          dirty={form.dirty}
          saving={form.saving}
          onDiscard={form.discard}
          saveLabel="Save Settings"
          extra={
            <Button variant="secondary" onClick={() => test.mutate(undefined)} disabled={test.isPending || !draft.welcomeChannelId}>
              <Send size={16} aria-hidden="true" /> {test.isPending ? 'Sending…' : 'Test Message'}
            </Button>
          }
        />
      )}
      <RecentWelcomes guildId={guildId} />
    </SettingsForm>
  );
}

/** The Welcome System page. */
export default function WelcomePage() {
  return (
    <SettingsShell title="Welcome System" description="Greet new members in the channel you choose, and optionally by direct message.">
      {(props) => <WelcomeBody {...props} />}
    </SettingsShell>
  );
}
