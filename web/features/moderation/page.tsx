// Moderation (/server/{serverId}/moderation, spec section 2): the four stat cards, the quick actions
// (Ban, Timeout and Warn User open the action dialog; View Reports lists the members' reports), the
// moderation log searched and filtered by the server, and the settings: DMs before an action, warning
// expiry and the escalation ladder, and the auto moderation rules, saved with Save Settings. Channel
// tools (purge, slowmode, lock) act on one channel at a time.
import { useQuery } from '@tanstack/react-query';
import { Ban, Clock, Flag, Gavel, ShieldAlert, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import type { ModerationAction } from '../../../src/shared/moderation';
import { directoryQuery } from '../../api/guild';
import { useSettingsForm } from '../../api/settings-form';
import { SaveBar, SettingsForm, SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { StatCard } from '../../components/stat-card';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ActionDialog } from './action-dialog';
import { ChannelToolsCard } from './channel-tools-card';
import { moderationKeys, moderationStatsQuery } from './api';
import { AutomodCard } from './automod-card';
import { bodyOf, draftOf } from './draft';
import { ModerationLog } from './moderation-log';
import { ReportsDialog } from './reports-dialog';
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
}: {
  guildId: string;
  readOnly: boolean;
  onAction: (action: ModerationAction) => void;
  onReports: () => void;
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
        <Button variant="secondary" className="btn-start" onClick={onReports} aria-label={open > 0 ? `View Reports (${open} open)` : 'View Reports'}>
          <Flag size={16} aria-hidden="true" /> View Reports
          {open > 0 ? (
            <Badge tone="danger" className="push-end" aria-hidden="true">
              {open}
            </Badge>
          ) : null}
        </Button>
      </CardContent>
    </Card>
  );
}

/** The page's body once the settings have loaded. */
function ModerationBody({ guildId, view, readOnly }: SettingsBodyProps) {
  const [action, setAction] = useState<ModerationAction | null>(null);
  const [reportsOpen, setReportsOpen] = useState(false);
  const directory = useQuery(directoryQuery(guildId)).data;
  const form = useSettingsForm({
    guildId,
    view,
    draftOf,
    bodyOf,
    success: { title: 'Settings Saved', description: 'Moderation settings have been updated successfully.' },
    failure: { title: 'Save Failed', description: 'Failed to save moderation settings.' },
    invalidate: [moderationKeys.all(guildId)],
  });
  const cardProps = { draft: form.draft, update: form.update, errors: form.errors, readOnly };
  return (
    <div className="stack">
      <Stats guildId={guildId} />
      <QuickActions guildId={guildId} readOnly={readOnly} onAction={setAction} onReports={() => setReportsOpen(true)} />
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
        <AutomodCard {...cardProps} directory={directory} />
        {readOnly ? null : <SaveBar dirty={form.dirty} saving={form.saving} onDiscard={form.discard} saveLabel="Save Settings" />}
      </SettingsForm>
      <ActionDialog guildId={guildId} view={view} action={action} onClose={() => setAction(null)} />
      <ReportsDialog guildId={guildId} open={reportsOpen} onOpenChange={setReportsOpen} readOnly={readOnly} />
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
