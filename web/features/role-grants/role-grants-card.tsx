// The Role grants card of the server dashboard: the roles the bot could not give or take when a
// feature asked (reaction roles, level rewards, verification, the member role). Those Discord did
// not answer wait for their next try; those it refused, or never answered, failed and wait for an
// admin: Retry now once the cause is fixed, or Dismiss.
import { useQuery } from '@tanstack/react-query';
import { RotateCw, ShieldCheck, X } from 'lucide-react';
import { ROLE_GRANT_MESSAGES, ROLE_GRANT_STATUS_LABELS, type RoleGrant } from '../../../src/shared/role-grants';
import { counted } from '../../../src/shared/words';
import { guildKeys } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { QueryList } from '../../components/query-list';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { formatDateTime, formatRelative } from '../../format';
import { dismissRoleGrant, retryRoleGrant, roleGrantKeys, roleGrantsQuery } from './api';

/** Props of RoleGrantsCard. */
export interface RoleGrantsCardProps {
  guildId: string;
  /** Whether the viewer may retry and dismiss (edit access). */
  canEdit: boolean;
}

/** "Give @Member to alice" / "Take @Red from bob": the change a grant is, in words. */
function changeInWords(grant: RoleGrant): string {
  const role = `@${grant.roleName ?? grant.roleId}`;
  const member = grant.memberName ?? grant.userId;
  return grant.action === 'add' ? `Give ${role} to ${member}` : `Take ${role} from ${member}`;
}

/** Where a grant stands: its next try, or why it failed. */
function GrantState({ grant }: { grant: RoleGrant }) {
  const tries = `Tried ${counted(grant.attempts, 'time')}.`;
  if (grant.status === 'pending' && grant.nextAttemptAt) {
    return (
      <p className="muted small">
        {tries} {grant.lastError} Next try{' '}
        <time dateTime={grant.nextAttemptAt} title={formatDateTime(grant.nextAttemptAt)}>
          {formatRelative(grant.nextAttemptAt)}
        </time>
        .
      </p>
    );
  }
  return (
    <p className="error-text small">
      {tries} {grant.lastError}
    </p>
  );
}

/** The waiting and failed role grants of the server, with Retry now and Dismiss. */
export function RoleGrantsCard({ guildId, canEdit }: RoleGrantsCardProps) {
  const grants = useQuery(roleGrantsQuery(guildId));
  const invalidate = [roleGrantKeys.list(guildId), guildKeys.diagnostics(guildId)];
  const retry = useGuildMutation({
    request: (id: number) => retryRoleGrant(guildId, id),
    invalidate,
    success: (grant) => ({
      title: ROLE_GRANT_MESSAGES.retried[grant.status],
      description: grant.status === 'done' ? `${changeInWords(grant)}: done.` : (grant.lastError ?? undefined),
      variant: grant.status === 'failed' ? 'destructive' : 'default',
    }),
    failure: { title: 'Could not retry the role grant' },
  });
  const dismiss = useGuildMutation({
    request: (id: number) => dismissRoleGrant(guildId, id),
    invalidate,
    success: { title: ROLE_GRANT_MESSAGES.dismissedTitle },
    failure: { title: 'Could not dismiss the role grant' },
  });
  const data = grants.data;
  const busy = retry.isPending || dismiss.isPending;
  return (
    <Card aria-labelledby="role-grants-heading">
      <CardHeader>
        <CardTitle id="role-grants-heading">Role grants</CardTitle>
        <CardDescription>
          Roles the bot could not give or take when asked. It tries again by itself when Discord did not answer; a refusal waits for you to fix its cause.
          {data && data.items.length > 0 ? ` ${data.pending.toLocaleString()} waiting, ${data.failed.toLocaleString()} failed.` : ''}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryList
          query={{ ...grants, data: data?.items }}
          what="the role grants"
          rowHeight="3.5rem"
          empty={{
            icon: ShieldCheck,
            title: 'Every role went through',
            description: 'Roles the bot could not give or take would be listed here, with what went wrong.',
          }}
        >
          {(items) => (
            <ul className="history-list" aria-label="Role grants">
              {items.map((grant) => (
                <li key={grant.id} className="history-item">
                  <div className="history-head">
                    <span className="history-summary">{changeInWords(grant)}</span>
                    <Badge tone={grant.status === 'failed' ? 'danger' : 'warning'}>{ROLE_GRANT_STATUS_LABELS[grant.status]}</Badge>
                    {canEdit ? (
                      <>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={busy}
                          aria-label={`Retry now: ${changeInWords(grant)}`}
                          onClick={() => retry.mutate(grant.id)}
                        >
                          <RotateCw size={14} aria-hidden="true" /> Retry now
                        </Button>
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={busy}
                          aria-label={`Dismiss: ${changeInWords(grant)}`}
                          onClick={() => dismiss.mutate(grant.id)}
                        >
                          <X size={14} aria-hidden="true" /> Dismiss
                        </Button>
                      </>
                    ) : null}
                  </div>
                  <p className="small">{grant.purpose}</p>
                  <GrantState grant={grant} />
                </li>
              ))}
            </ul>
          )}
        </QueryList>
      </CardContent>
    </Card>
  );
}
