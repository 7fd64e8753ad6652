// Bot Settings (/server/{serverId}/settings, spec section 2): General, Features, Notifications,
// Advanced, Data Management, with Save Changes; plus Dashboard Access, webhook deliveries and the
// History with restore. Viewers see everything read-only.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { BOT_SETTINGS_MESSAGES } from '../../../src/shared/bot-settings';
import { ApiRequestError, queryClient } from '../../api/client';
import { guildKeys } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { DiagnosticsPanel } from '../../components/DiagnosticsPanel';
import { SaveBar, SettingsForm, SettingsShell, type SettingsBodyProps } from '../../components/SettingsShell';
import { AccessCard } from './AccessCard';
import { directoryQuery, saveSettings, settingsKeys } from './api';
import { DataCard } from './DataCard';
import { DeliveriesCard } from './DeliveriesCard';
import { bodyOf, draftOf, isDirty, type Draft } from './draft';
import { AdvancedCard, GeneralCard, NotificationsCard, SwitchesCard } from './FormCards';
import { HistoryCard } from './HistoryCard';

/** The settings form and the page's other cards, once the settings have loaded. */
function SettingsBody({ guildId, view, serverName, readOnly }: SettingsBodyProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(view));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const directory = useQuery(directoryQuery(guildId)).data;

  // A save, restore, import or reset elsewhere on the page loads new settings: the form follows them.
  useEffect(() => {
    setDraft(draftOf(view));
  }, [view]);

  const save = useGuildMutation({
    request: () => saveSettings(guildId, bodyOf(draft, view)),
    invalidate: [settingsKeys.history(guildId, 1), guildKeys.diagnostics(guildId)],
    success: BOT_SETTINGS_MESSAGES.saved,
    failure: BOT_SETTINGS_MESSAGES.failed,
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(settingsKeys.all(guildId), saved);
    },
  });
  const submit = () =>
    save.mutate(undefined, { onError: (error) => setErrors(error instanceof ApiRequestError ? (error.body?.fields ?? {}) : {}) });
  const card = { draft, view, errors, readOnly, directory, update: (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch })) };

  return (
    <>
      <SettingsForm label="Bot settings" onSave={submit}>
        <div className="grid grid-2">
          <GeneralCard {...card} />
          <SwitchesCard {...card} />
          <NotificationsCard {...card} />
          <AdvancedCard {...card} />
        </div>
        {readOnly ? null : (
          <SaveBar
            dirty={isDirty(draft, view)}
            saving={save.isPending}
            onDiscard={() => {
              setDraft(draftOf(view));
              setErrors({});
            }}
            saveLabel="Save Changes"
          />
        )}
      </SettingsForm>
      <DiagnosticsPanel guildId={guildId} features={['notifications', 'autoRole']} />
      <DataCard guildId={guildId} serverName={serverName} readOnly={readOnly} />
      <div className="grid grid-2">
        <AccessCard guildId={guildId} canGrant={view.access === 'admin'} directory={directory} />
        <DeliveriesCard guildId={guildId} />
      </div>
      <HistoryCard guildId={guildId} canEdit={!readOnly} />
    </>
  );
}

/** The Bot Settings page. */
export default function SettingsPage() {
  return (
    <SettingsShell title="Bot Settings" description="Configure the bot for this server. Every change is recorded in the history below.">
      {(props) => <SettingsBody {...props} />}
    </SettingsShell>
  );
}
