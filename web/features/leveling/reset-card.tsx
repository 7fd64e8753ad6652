// Reset and restore (issue 25, point 1): reset one member's XP and level or everyone's, after a
// confirmation that names what is reset; every reset and import keeps a backup the list below
// restores in one click for BACKUP_DAYS days (RESTORE_RULE says what a restore does).
import { useQuery } from '@tanstack/react-query';
import { ArchiveRestore, History, RotateCcw, UserX } from 'lucide-react';
import { useState } from 'react';
import { BACKUP_DAYS, RESTORE_RULE, type LevelBackup } from '../../../src/shared/level-admin';
import { errorMessage } from '../../api/client';
import { guildKeys } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field, MemberPicker } from '../../components/form';
import { QueryList } from '../../components/query-list';
import { formatNumber } from '../../components/stat-card';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatDateTime } from '../../format';
import { toast } from '../../state/toasts';
import { levelingKeys, levelingStatsQuery } from './api';
import { backupsQuery, memberLevelQuery, resetLevels, restoreBackup } from './admin-api';

/** "3 days left", or the last day. */
function daysLeft(backup: LevelBackup): string {
  if (backup.daysLeft <= 1) return 'Last day to restore';
  return `${backup.daysLeft} days left`;
}

/** What restoring a backup does, in words. */
function restoreDescription(backup: LevelBackup): string {
  const who = `${formatNumber(backup.memberCount)} ${backup.memberCount === 1 ? 'member goes' : 'members go'}`;
  return `${backup.summary}: ${who} back to their XP and level from ${formatDateTime(backup.createdAt)}. ${RESTORE_RULE}`;
}

/** What a one-member reset would take, in words. */
function MemberResetSummary({ guildId, userId }: { guildId: string; userId: string }) {
  const level = useQuery(memberLevelQuery(guildId, userId));
  if (level.isPending) return <p className="muted small">Reading their level…</p>;
  if (level.isError) return <p className="error-text small">Could not read their level: {errorMessage(level.error)}</p>;
  const { username, level: at, totalXp } = level.data;
  return (
    <p className="small">
      {totalXp === 0
        ? `${username ?? 'This member'} has no XP: there is nothing to reset.`
        : `${username ?? 'This member'} goes from level ${at} (${formatNumber(totalXp)} XP) to level 1 with no XP.`}
    </p>
  );
}

/** The Reset and restore card. */
export function ResetRestoreCard({ guildId, readOnly }: { guildId: string; readOnly: boolean }) {
  const [confirm, setConfirm] = useState<'member' | 'server' | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<LevelBackup | null>(null);
  const backups = useQuery(backupsQuery(guildId));
  const stats = useQuery(levelingStatsQuery(guildId)).data;
  const refresh = [levelingKeys.all(guildId), guildKeys.settings(guildId)];
  const reset = useGuildMutation({
    request: (input: { userId?: string }) => resetLevels(guildId, input),
    invalidate: refresh,
    success: (result) => ({ title: 'Levels Reset', description: result.message }),
    failure: { title: 'Reset Failed' },
    onSuccess: () => {
      setConfirm(null);
      setUserId(null);
    },
  });
  const restore = useGuildMutation({
    request: (backup: LevelBackup) => restoreBackup(guildId, backup.id),
    invalidate: refresh,
    success: (result) => ({ title: 'Levels Restored', description: result.message }),
    failure: { title: 'Restore Failed' },
    onSuccess: () => setRestoring(null),
  });
  const members = stats?.totalUsers ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Reset and restore</CardTitle>
        <CardDescription>
          Reset one member or the whole server. A backup is kept for {BACKUP_DAYS} days and restores in one click. {RESTORE_RULE}
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <div className="row">
          <Button variant="outline" onClick={() => setConfirm('member')} disabled={readOnly}>
            <UserX size={16} aria-hidden="true" /> Reset a member
          </Button>
          <Button variant="danger" onClick={() => setConfirm('server')} disabled={readOnly || members === 0}>
            <RotateCcw size={16} aria-hidden="true" /> Reset every member
          </Button>
        </div>
        <h3>Backups</h3>
        <QueryList
          query={backups}
          what="the backups"
          empty={{ icon: History, title: 'No backups', description: `Each reset and import keeps one here for ${BACKUP_DAYS} days.` }}
        >
          {(rows) => (
            <ul className="history-list" aria-label="Backups">
              {rows.map((backup) => (
                <li key={backup.id} className="history-item row row-between" data-testid="level-backup">
                  <div>
                    <p className="strong">{backup.summary}</p>
                    <p className="muted small">
                      {formatDateTime(backup.createdAt)} · by {backup.actorName ?? 'unknown'} · {formatNumber(backup.memberCount)}{' '}
                      {backup.memberCount === 1 ? 'member' : 'members'}
                    </p>
                  </div>
                  {backup.restoredAt ? (
                    <Badge tone="success">Restored{backup.restoredByName ? ` by ${backup.restoredByName}` : ''}</Badge>
                  ) : (
                    <div className="row">
                      <Badge tone={backup.daysLeft <= 1 ? 'warning' : 'neutral'}>{daysLeft(backup)}</Badge>
                      <Button variant="outline" size="sm" onClick={() => setRestoring(backup)} disabled={readOnly} aria-label={`Restore: ${backup.summary}`}>
                        <ArchiveRestore size={16} aria-hidden="true" /> Restore
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </QueryList>
      </CardContent>
      <ConfirmDialog
        open={confirm === 'server'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Reset every member?"
        description={
          `Every member's XP and level goes back to level 1 with no XP (${formatNumber(members)} ${members === 1 ? 'member' : 'members'}), ` +
          `and level reward roles are taken with it. A backup is kept for ${BACKUP_DAYS} days.`
        }
        confirmLabel="Reset every member"
        pending={reset.isPending}
        onConfirm={() => reset.mutate({})}
      />
      <ConfirmDialog
        open={confirm === 'member'}
        onOpenChange={(open) => {
          if (open) return;
          setConfirm(null);
          setUserId(null);
        }}
        title="Reset a member"
        description={`Their XP and level go back to level 1 with no XP, and level reward roles follow. A backup is kept for ${BACKUP_DAYS} days.`}
        confirmLabel="Reset this member"
        pending={reset.isPending}
        onConfirm={() =>
          userId ? reset.mutate({ userId }) : toast({ title: 'Pick a member', description: 'Choose whose XP and level to reset.', variant: 'destructive' })
        }
      >
        <Field label="Member">{(ids) => <MemberPicker {...ids} guildId={guildId} value={userId} onChange={setUserId} />}</Field>
        {userId ? <MemberResetSummary guildId={guildId} userId={userId} /> : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={restoring !== null}
        onOpenChange={(open) => !open && setRestoring(null)}
        title="Restore this backup?"
        description={restoring ? restoreDescription(restoring) : ''}
        confirmLabel="Restore"
        tone="primary"
        pending={restore.isPending}
        onConfirm={() => restoring && restore.mutate(restoring)}
      />
    </Card>
  );
}
