// Bot Settings (/server/{serverId}/settings, spec section 2): General, Features, Notifications,
// Advanced, Data Management, with Save Changes; plus Dashboard Access, webhook deliveries and the
// History with restore. Viewers see everything read-only.
import { useQuery } from '@tanstack/react-query';
import { BOT_SETTINGS_MESSAGES } from '../../../src/shared/bot-settings';
import { useSettingsForm } from '../../api/settings-form';
import { DiagnosticsPanel } from '../../components/diagnostics-panel';
import { SaveBar, SettingsForm, SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { AccessCard } from './access-card';
import { directoryQuery, settingsKeys } from './api';
import { DataCard } from './data-card';
import { DeliveriesCard } from './deliveries-card';
import { bodyOf, draftOf, type Draft } from './draft';
import { AdvancedCard, GeneralCard, NotificationsCard, SwitchesCard } from './form-cards';
import { HistoryCard } from './history-card';

/** The settings form and the page's other cards, once the settings have loaded. */
function SettingsBody({ guildId, view, serverName, readOnly }: SettingsBodyProps) {
  const directory = useQuery(directoryQuery(guildId)).data;
  // A save, restore, import or reset elsewhere on the page loads new settings: the form follows
  // them until the person edits; then it keeps their edits and what they were based on.
  const form = useSettingsForm<Draft>({
    guildId,
    view,
    draftOf,
    bodyOf,
    success: BOT_SETTINGS_MESSAGES.saved,
    failure: BOT_SETTINGS_MESSAGES.failed,
    serverMessage: false,
    invalidate: [settingsKeys.history(guildId, 1)],
  });
  const { draft, errors } = form;
  const card = { draft, view, errors, readOnly, directory, update: form.update };

  return (
    <>
      <SettingsForm label="Bot settings" onSave={form.save}>
        <div className="grid grid-2">
          <GeneralCard {...card} />
          <SwitchesCard {...card} />
          <NotificationsCard {...card} />
          <AdvancedCard {...card} />
        </div>
        {readOnly ? null : <SaveBar dirty={form.dirty} saving={form.saving} onDiscard={form.discard} saveLabel="Save Changes" />}
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
