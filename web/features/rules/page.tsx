// Rule Verification (/server/{serverId}/rules, spec section 2): the verification switch, rules
// channel, role and text, the welcome fields (the same settings as the Welcome page), how it
// works, a live checklist of what would fail with the form as it is, and the rules message itself.
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CircleCheck, ExternalLink, XCircle } from 'lucide-react';
import type { GuildDirectory } from '../../../src/shared/servers';
import type { SettingsView } from '../../../src/shared/settings';
import {
  VerificationStatusSchema,
  VERIFY_EMOJI,
  welcomeChannelProblem,
  WELCOME_MESSAGES,
  WELCOME_MISSING_CHANNEL,
  type VerificationStatus,
} from '../../../src/shared/welcome';
import { directoryQuery, guildKeys, readGuild } from '../../api/guild';
import { useSettingsForm } from '../../api/settings-form';
import { DiagnosticsPanel } from '../../components/diagnostics-panel';
import { ChannelPicker, Field, RolePicker, SwitchRow } from '../../components/form';
import { SaveBar, SettingsForm, SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Textarea } from '../../components/ui/textarea';
import { Input } from '../../components/ui/input';
import { VerifyOptionsCard, type VerifyOptionsDraft } from './verify-options';
import { UNREACT_EXPLAINED } from '../../../src/shared/verification';

/** The page's fields (spec section 7's Rule verification body). */
interface Draft extends VerifyOptionsDraft {
  verificationEnabled: boolean;
  rulesChannelId: string | null;
  verificationRoleId: string | null;
  rulesMessage: string;
  welcomeEnabled: boolean;
  welcomeChannelId: string | null;
  welcomeMessage: string;
}

const draftOf = (view: SettingsView): Draft => ({
  verificationEnabled: view.verificationEnabled,
  rulesChannelId: view.rulesChannelId,
  verificationRoleId: view.verificationRoleId,
  rulesMessage: view.rulesMessage ?? '',
  welcomeEnabled: view.welcomeEnabled,
  welcomeChannelId: view.welcomeChannelId,
  welcomeMessage: view.welcomeMessage,
  verificationButton: view.verificationButton,
  verificationMinAccountDays: view.verificationMinAccountDays,
  verificationYoungAccounts: view.verificationYoungAccounts,
  verificationOnUnreact: view.verificationOnUnreact,
});
const bodyOf = (draft: Draft) => ({ ...draft, rulesMessage: draft.rulesMessage.trim() || null });

const statusKey = (guildId: string) => [...guildKeys.all(guildId), 'verification'] as const;

/** One line of the checklist. */
interface Check {
  state: 'ok' | 'error' | 'warning';
  text: string;
}

/** What would fail if the form were saved as it is, from the live directory. */
function checklist(draft: Draft, directory: GuildDirectory | undefined, status: VerificationStatus | undefined): Check[] {
  const bot = directory?.bot.name ?? 'The bot';
  const channel = directory?.channels.find((candidate) => candidate.id === draft.rulesChannelId);
  const role = directory?.roles.find((candidate) => candidate.id === draft.verificationRoleId);
  const checks: Check[] = [];
  if (!draft.rulesChannelId) checks.push({ state: 'error', text: 'Pick the rules channel.' });
  else if (!channel) checks.push({ state: 'error', text: 'The rules channel is not a channel of this server.' });
  else {
    const missing = [
      !channel.bot.send && 'send messages',
      !channel.bot.embed && 'embed links',
      !channel.bot.react && 'add reactions',
      !channel.bot.readHistory && 'read message history',
    ].filter(Boolean);
    checks.push(
      missing.length
        ? { state: 'error', text: `${bot} cannot ${missing.join(', ')} in #${channel.name}.` }
        : { state: 'ok', text: `${bot} can post the rules and the ${VERIFY_EMOJI} in #${channel.name}.` },
    );
    checks.push(
      channel.bot.manageMessages
        ? { state: 'ok', text: `${bot} can remove other reactions from the rules message.` }
        : { state: 'warning', text: `${bot} lacks Manage Messages in #${channel.name}: other reactions on the rules message will stay.` },
    );
  }
  if (!draft.verificationRoleId) checks.push({ state: 'error', text: 'Pick the verification role.' });
  else if (!role) checks.push({ state: 'error', text: 'The verification role is not a role of this server.' });
  else if (!directory?.bot.manageRoles) checks.push({ state: 'error', text: `${bot} needs the Manage Roles permission to give @${role.name}.` });
  else
    checks.push(
      role.assignable
        ? { state: 'ok', text: `${bot} can give @${role.name}.` }
        : { state: 'error', text: `@${role.name} is above ${bot}'s highest role: move the ${bot} role above it in Server Settings → Roles.` },
    );
  checks.push(draft.rulesMessage.trim() ? { state: 'ok', text: 'The rules are written.' } : { state: 'error', text: 'Write the rules members agree to.' });
  const posted = status?.rulesMessage;
  if (posted && !posted.exists) checks.push({ state: 'warning', text: 'The rules message was deleted in Discord; saving posts it again.' });
  else if (!posted || posted.channelId !== draft.rulesChannelId) checks.push({ state: 'warning', text: 'The rules message will be posted when you save.' });
  else checks.push({ state: 'ok', text: 'The rules message is posted; saving updates it.' });
  return checks;
}

const ICONS = { ok: CircleCheck, error: XCircle, warning: AlertTriangle };

/** The form and its side panels, once the settings have loaded. */
function RulesBody({ guildId, view, readOnly }: SettingsBodyProps) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const status = useQuery({ queryKey: statusKey(guildId), queryFn: readGuild(guildId, '/verification', VerificationStatusSchema) });
  const form = useSettingsForm({
    guildId,
    view,
    draftOf,
    bodyOf,
    success: WELCOME_MESSAGES.rulesSaved,
    failure: WELCOME_MESSAGES.failed,
    invalidate: [statusKey(guildId)],
    precheck: (draft) => {
      const problem = welcomeChannelProblem(draft);
      return problem ? { notice: WELCOME_MISSING_CHANNEL, fields: { welcomeChannelId: problem } } : null;
    },
  });
  const { draft, update, errors } = form;
  const checks = checklist(draft, directory, status.data);
  const posted = status.data?.rulesMessage;

  return (
    <SettingsForm label="Rule verification settings" onSave={form.save}>
      <div className="grid grid-2">
        <div className="stack">
          <Card>
            <CardHeader>
              <CardTitle>Verification</CardTitle>
              <CardDescription>New members accept the rules with a {VERIFY_EMOJI} reaction and get the verification role.</CardDescription>
            </CardHeader>
            <CardContent className="stack">
              <SwitchRow
                label="Enable verification"
                checked={draft.verificationEnabled}
                onChange={(verificationEnabled) => update({ verificationEnabled })}
                disabled={readOnly}
                error={errors.verificationEnabled}
              />
              <Field label="Rules channel ID" error={errors.rulesChannelId}>
                {(ids) => (
                  <ChannelPicker
                    {...ids}
                    value={draft.rulesChannelId}
                    onChange={(rulesChannelId) => update({ rulesChannelId })}
                    directory={directory}
                    disabled={readOnly}
                  />
                )}
              </Field>
              <Field label="Verification role ID" error={errors.verificationRoleId}>
                {(ids) => (
                  <RolePicker
                    {...ids}
                    value={draft.verificationRoleId}
                    onChange={(verificationRoleId) => update({ verificationRoleId })}
                    directory={directory}
                    disabled={readOnly}
                  />
                )}
              </Field>
              <Field label="Rules message" hint="Posted as an embed in the rules channel." error={errors.rulesMessage}>
                {(ids) => (
                  <Textarea
                    {...ids}
                    rows={6}
                    maxLength={4000}
                    value={draft.rulesMessage}
                    placeholder={'1. Be kind.\n2. No spam.'}
                    onChange={(event) => update({ rulesMessage: event.target.value })}
                    disabled={readOnly}
                  />
                )}
              </Field>
            </CardContent>
          </Card>
          <VerifyOptionsCard draft={draft} update={update} errors={errors} readOnly={readOnly} />
          <Card>
            <CardHeader>
              <CardTitle>Welcome</CardTitle>
              <CardDescription>
                The same welcome as on the Welcome System page. Placeholders: {'{user}'} and {'{server}'}.
              </CardDescription>
            </CardHeader>
            <CardContent className="stack">
              <SwitchRow
                label="Enable welcome messages"
                checked={draft.welcomeEnabled}
                onChange={(welcomeEnabled) => update({ welcomeEnabled })}
                disabled={readOnly}
              />
              <Field label="Welcome channel ID" error={errors.welcomeChannelId}>
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
              <Field label="Welcome message" error={errors.welcomeMessage}>
                {(ids) => (
                  <Input
                    {...ids}
                    value={draft.welcomeMessage}
                    maxLength={2000}
                    onChange={(event) => update({ welcomeMessage: event.target.value })}
                    disabled={readOnly}
                  />
                )}
              </Field>
            </CardContent>
          </Card>
        </div>
        <div className="stack">
          <Card>
            <CardHeader>
              <CardTitle>How it works</CardTitle>
            </CardHeader>
            <CardContent>
              <ol className="steps">
                <li>A member joins; the rules channel is what they can read.</li>
                <li>The bot keeps the rules message there, with a {VERIFY_EMOJI} reaction.</li>
                <li>
                  The member reacts with {VERIFY_EMOJI} and the bot gives them the verification role (and the member role, when auto-assign is on in Settings).
                </li>
                {draft.verificationButton ? <li>Instead of reacting, they may press Verify; the bot answers only them.</li> : null}
                {draft.verificationMinAccountDays > 0 ? (
                  <li>
                    Accounts younger than {draft.verificationMinAccountDays} days are told privately how long to wait
                    {draft.verificationYoungAccounts === 'flag' ? ', and moderators are told in the log channel' : ''}.
                  </li>
                ) : null}
                <li>{UNREACT_EXPLAINED[draft.verificationOnUnreact]}</li>
                <li>Reactions added while the bot was offline are honoured when it starts.</li>
              </ol>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Checklist</CardTitle>
              <CardDescription>With the form as it is now, before you save.</CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="problem-list" aria-label="Verification checklist">
                {checks.map((check) => {
                  const Icon = ICONS[check.state];
                  return (
                    <li
                      key={check.text}
                      className={`notice ${check.state === 'ok' ? 'notice-success' : check.state === 'error' ? 'notice-danger' : 'notice-warning'}`}
                    >
                      <Icon size={16} aria-hidden="true" />
                      <span>{check.text}</span>
                    </li>
                  );
                })}
              </ul>
              {posted ? (
                <p className="small muted">
                  {posted.exists ? (
                    <a href={posted.url} target="_blank" rel="noreferrer">
                      Open the rules message <ExternalLink size={12} aria-hidden="true" />
                    </a>
                  ) : (
                    'The rules message was deleted in Discord.'
                  )}
                </p>
              ) : null}
            </CardContent>
          </Card>
          <DiagnosticsPanel guildId={guildId} features={['verification', 'autoRole']} />
        </div>
      </div>
      {readOnly ? null : <SaveBar dirty={form.dirty} saving={form.saving} onDiscard={form.discard} saveLabel="Save Settings" />}
    </SettingsForm>
  );
}

/** The Rule Verification page. */
export default function RulesPage() {
  return (
    <SettingsShell title="Rule Verification" description="Members accept the rules with a reaction before they get the verification role.">
      {(props) => <RulesBody {...props} />}
    </SettingsShell>
  );
}
