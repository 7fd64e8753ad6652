// The Bot Settings form's cards: General, Feature switches, Notifications and Advanced.
import { KeyRound } from 'lucide-react';
import type { GuildDirectory } from '../../../src/shared/servers';
import type { SettingsView } from '../../../src/shared/settings';
import { ChannelPicker, Field, RolePicker, SwitchRow } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import type { Draft } from './draft';

/** What every card of the form receives. */
export interface CardProps {
  draft: Draft;
  view: SettingsView;
  update: (patch: Partial<Draft>) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  directory: GuildDirectory | undefined;
}

/** Display name, prefix, status message and the auto-assigned member role. */
export function GeneralCard({ draft, view, update, errors, readOnly, directory }: CardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>General</CardTitle>
        <CardDescription>How the bot presents itself in this server.</CardDescription>
      </CardHeader>
      <CardContent className="form-grid">
        <Field label="Display name" hint="The bot's nickname in this server." error={errors.displayName}>
          {(ids) => <Input {...ids} value={draft.displayName} maxLength={32} onChange={(e) => update({ displayName: e.target.value })} disabled={readOnly} />}
        </Field>
        <Field
          label="Command prefix"
          hint={`Text commands: ${draft.commandPrefix || '!'}rank, ${draft.commandPrefix || '!'}balance…`}
          error={errors.commandPrefix}
        >
          {(ids) => (
            <Input {...ids} value={draft.commandPrefix} maxLength={5} onChange={(e) => update({ commandPrefix: e.target.value })} disabled={readOnly} />
          )}
        </Field>
        <Field
          label="Status message"
          hint={view.statusEditable ? 'Shown under the bot’s name in every server it is in.' : (view.statusLockedReason ?? undefined)}
          error={errors.statusMessage}
        >
          {(ids) => (
            <Input
              {...ids}
              value={draft.statusMessage}
              maxLength={128}
              placeholder="No status"
              onChange={(e) => update({ statusMessage: e.target.value })}
              disabled={readOnly || !view.statusEditable}
            />
          )}
        </Field>
      </CardContent>
      <CardContent>
        <SwitchRow
          label="Auto-assign member role"
          description="Given to members when they join, or once they verify when rule verification is on."
          checked={draft.autoRoleEnabled}
          onChange={(autoRoleEnabled) => update({ autoRoleEnabled })}
          disabled={readOnly}
        />
        <Field label="Member role" error={errors.memberRoleId}>
          {(ids) => (
            <RolePicker
              {...ids}
              value={draft.memberRoleId || null}
              onChange={(value) => update({ memberRoleId: value ?? '' })}
              directory={directory}
              disabled={readOnly}
            />
          )}
        </Field>
      </CardContent>
    </Card>
  );
}

/** The feature switches. */
export function SwitchesCard({ draft, update, errors, readOnly }: CardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Features</CardTitle>
        <CardDescription>A feature switched off does nothing in chat, and its commands say it is off.</CardDescription>
      </CardHeader>
      <CardContent>
        <SwitchRow
          label="Welcome messages"
          checked={draft.welcomeEnabled}
          onChange={(welcomeEnabled) => update({ welcomeEnabled })}
          disabled={readOnly}
          error={errors.welcomeChannelId}
        />
        <SwitchRow label="Leveling" checked={draft.levelingEnabled} onChange={(levelingEnabled) => update({ levelingEnabled })} disabled={readOnly} />
        <SwitchRow label="Economy" checked={draft.economyEnabled} onChange={(economyEnabled) => update({ economyEnabled })} disabled={readOnly} />
        <SwitchRow label="Auto moderation" checked={draft.automodEnabled} onChange={(automodEnabled) => update({ automodEnabled })} disabled={readOnly} />
        <SwitchRow
          label="Music commands"
          description="/play and the other music commands; the player, library and stations are on the Music page."
          checked={draft.musicEnabled}
          onChange={(musicEnabled) => update({ musicEnabled })}
          disabled={readOnly}
          error={errors.musicEnabled}
        />
      </CardContent>
    </Card>
  );
}

/** The log channel and which events the bot posts there. */
export function NotificationsCard({ draft, update, errors, readOnly, directory }: CardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>What the bot posts in the log channel (and sends to the webhook).</CardDescription>
      </CardHeader>
      <CardContent>
        <Field label="Log channel" error={errors.logChannelId}>
          {(ids) => (
            <ChannelPicker
              {...ids}
              value={draft.logChannelId || null}
              onChange={(value) => update({ logChannelId: value ?? '' })}
              directory={directory}
              disabled={readOnly}
            />
          )}
        </Field>
      </CardContent>
      <CardContent>
        <SwitchRow label="Joins and leaves" checked={draft.notifyJoinLeave} onChange={(notifyJoinLeave) => update({ notifyJoinLeave })} disabled={readOnly} />
        <SwitchRow label="Level-ups" checked={draft.notifyLevelUp} onChange={(notifyLevelUp) => update({ notifyLevelUp })} disabled={readOnly} />
        <SwitchRow
          label="Moderation alerts"
          checked={draft.notifyModeration}
          onChange={(notifyModeration) => update({ notifyModeration })}
          disabled={readOnly}
        />
        <SwitchRow
          label="Error notifications"
          description="For example, when the bot lacks a permission it needs."
          checked={draft.notifyErrors}
          onChange={(notifyErrors) => update({ notifyErrors })}
          disabled={readOnly}
        />
      </CardContent>
    </Card>
  );
}

/** A random key of 32 hex characters, made in the browser. */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The API key (write-only), webhook URL, rate limit and embed footer. */
export function AdvancedCard({ draft, view, update, errors, readOnly }: CardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Advanced</CardTitle>
        <CardDescription>Webhook deliveries are signed: X-Signature-256 is sha256= and the HMAC-SHA256 of the body with the API key.</CardDescription>
      </CardHeader>
      <CardContent className="form-grid">
        <Field
          label="External API key"
          hint={view.apiKeyLast4 ? `A key ending in ${view.apiKeyLast4} is set. Type a new one to replace it.` : 'No key is set.'}
          error={errors.apiKey}
        >
          {(ids) => (
            <div className="row">
              <Input
                {...ids}
                type="password"
                autoComplete="new-password"
                value={draft.apiKey}
                placeholder={view.apiKeyLast4 ? `••••${view.apiKeyLast4}` : '16 to 128 characters'}
                onChange={(e) => update({ apiKey: e.target.value })}
                disabled={readOnly}
              />
              <Button variant="outline" size="sm" onClick={() => update({ apiKey: randomKey() })} disabled={readOnly}>
                <KeyRound size={14} aria-hidden="true" /> Generate
              </Button>
            </div>
          )}
        </Field>
        <Field label="Webhook URL" hint="Each notification is POSTed here as JSON." error={errors.webhookUrl}>
          {(ids) => (
            <Input
              {...ids}
              type="url"
              inputMode="url"
              value={draft.webhookUrl}
              placeholder="https://example.com/hooks/awesomebot"
              onChange={(e) => update({ webhookUrl: e.target.value })}
              disabled={readOnly}
            />
          )}
        </Field>
        <Field label="Rate limit (commands per minute)" hint="Per member, slash and text commands together." error={errors.rateLimitPerMinute}>
          {(ids) => (
            <Input
              {...ids}
              type="number"
              min={1}
              max={600}
              value={draft.rateLimitPerMinute}
              onChange={(e) => update({ rateLimitPerMinute: e.target.value })}
              disabled={readOnly}
            />
          )}
        </Field>
        <Field label="Custom embed footer" hint="Added to every embed the bot posts in this server." error={errors.embedFooter}>
          {(ids) => <Input {...ids} value={draft.embedFooter} maxLength={2048} onChange={(e) => update({ embedFooter: e.target.value })} disabled={readOnly} />}
        </Field>
      </CardContent>
    </Card>
  );
}
