// Moderation (/server/{serverId}/moderation, spec section 2): the four stat cards, the quick actions
// (Ban, Timeout and Warn User open the action dialog; View Reports lists the members' reports), the
// moderation log searched and filtered by the server, and the settings: DMs before an action, warning
// expiry and the escalation ladder, and the auto moderation rules, saved with Save Settings. Channel
// tools (purge, slowmode, lock) act on one channel at a time. Raid protection (raid-card.tsx) shows
// raid mode with Start and End, and its rules save with the other settings.
import { useQuery } from '@tanstack/react-query';
import { Ban, Clock, Flag, Gavel, ShieldAlert, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import type { ModerationAction } from '../../../src/shared/moderation';
import { directoryQuery } from '../../api/guild';
import { useSettingsForm } from '../../api/settings-form';
import { SaveBar, SettingsForm, SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { StatCard } from '../../components/stat-card';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ActionDialog } from './action-dialog';
import { AppealsCard } from './appeals-card';
import { AppealsButton, AppealsDialog } from './appeals-dialog';
import { ChannelToolsCard } from './channel-tools-card';
import { moderationKeys, moderationStatsQuery } from './api';
import { AutomodCard } from './automod-card';
import { bodyOf, draftOf } from './draft';
import { ModerationLog } from './moderation-log';
import { ReportsDialog } from './reports-dialog';
import { OpenCountButton } from './status-list';
import { RaidCard, raidBodyOf, raidDraftOf } from './raid-card';
import { DmCard, WarningsCard } from './settings-cards';

/** The four headline numbers, counted by the server over the whole log. */
function Stats({ guildId }: { guildId: string }) {
  const stats = useQuery(moderationStatsQuery(guildId)).data;
  return (
    <div className="grid grid-stats">
      <StatCard label="Total Actions" value={stats?.totalActions} icon={Gavel} hint={stats && stats.kicks > 0 ? `Kicks: ${stats.kicks}` : undefined} />
      <StatCard label="Bans" value={stats?.bans} icon={Ban} tone="warning" />
      <StatCard label="Warnings" value={stats?.warnings} icon={TriangleAlert} tone="info" />
      <StatCard label="Timeouts" value={stats?.timeouts} icon={Clock} tone="success" />
    </div>
  );
}

/** Ban, Timeout and Warn User, and View Reports with the count of open ones. */
function QuickActions({
  guildId,
  readOnly,
  onAction,
  onReports,
  onAppeals,
}: {
  guildId: string;
  readOnly: boolean;
  onAction: (action: ModerationAction) => void;
  onReports: () => void;
  onAppeals: () => void;
}) {
  const open = useQuery(moderationStatsQuery(guildId)).data?.openReports ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
        <CardDescription>Each action is recorded as a case in the log below; the dialog also kicks, unbans and adds notes.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-stats">
        <Button variant="danger" className="btn-start" onClick={() => onAction('ban')} disabled={readOnly}>
          <Ban size={16} aria-hidden="true" /> Ban User
        </Button>
        <Button variant="secondary" className="btn-start" onClick={() => onAction('timeout')} disabled={readOnly}>
          <Clock size={16} aria-hidden="true" /> Timeout User
        </Button>
        <Button variant="secondary" className="btn-start" onClick={() => onAction('warn')} disabled={readOnly}>
          <TriangleAlert size={16} aria-hidden="true" /> Warn User
        </Button>
        <OpenCountButton icon={Flag} label="View Reports" open={open} onClick={onReports} />
        <AppealsButton guildId={guildId} onOpen={onAppeals} />
      </CardContent>
    </Card>
  );
}

/** The page's body once the settings have loaded. */
function ModerationBody({ guildId, view, readOnly }: SettingsBodyProps) {
  const [action, setAction] = useState<ModerationAction | null>(null);
  const [reportsOpen, setReportsOpen] = useState(false);
  const [appealsOpen, setAppealsOpen] = useState(false);
  const directory = useQuery(directoryQuery(guildId)).data;
  const form = useSettingsForm({
    guildId,
    view,
    // Raid protection's fields join the page's draft and body (raid-card.tsx).
    draftOf: (settings) => ({ ...draftOf(settings), ...raidDraftOf(settings) }),
    bodyOf: (draft) => ({ ...bodyOf(draft), ...raidBodyOf(draft) }),
    success: { title: 'Settings Saved', description: 'Moderation settings have been updated successfully.' },
    failure: { title: 'Save Failed', description: 'Failed to save moderation settings.' },
    invalidate: [moderationKeys.all(guildId)],
  });
  const cardProps = { draft: form.draft, update: form.update, errors: form.errors, readOnly };
  return (
    <div className="stack">
      <Stats guildId={guildId} />
      <QuickActions guildId={guildId} readOnly={readOnly} onAction={setAction} onReports={() => setReportsOpen(true)} onAppeals={() => setAppealsOpen(true)} />
      <ChannelToolsCard guildId={guildId} readOnly={readOnly} />
      <ModerationLog guildId={guildId} />
      <SettingsForm label="Moderation settings" onSave={form.save}>
        <h2 className="section-title title-with-icon">
          <ShieldAlert size={18} aria-hidden="true" /> Settings
        </h2>
        <div className="grid grid-2 align-start">
          <DmCard {...cardProps} />
          <WarningsCard {...cardProps} />
        </div>
        <AppealsCard {...cardProps} />
        <AutomodCard {...cardProps} guildId={guildId} directory={directory} />
        <RaidCard {...cardProps} guildId={guildId} directory={directory} />
        {readOnly ? null : <SaveBar dirty={form.dirty} saving={form.saving} onDiscard={form.discard} saveLabel="Save Settings" />}
      </SettingsForm>
      <ActionDialog guildId={guildId} view={view} action={action} onClose={() => setAction(null)} />
      <ReportsDialog guildId={guildId} open={reportsOpen} onOpenChange={setReportsOpen} readOnly={readOnly} />
      <AppealsDialog guildId={guildId} open={appealsOpen} onOpenChange={setAppealsOpen} readOnly={readOnly} />
    </div>
  );
}

/** The Moderation page. */
export default function ModerationPage() {
  return (
    <SettingsShell title="Moderation" description="Ban, time out and warn members, handle reports, search every case, and set up auto moderation.">
      {(props) => <ModerationBody {...props} />}
    </SettingsShell>
  );
}
