// Dashboard access (delegated): who besides the server's managers may open this dashboard, to
// view or to edit, and until when. The owner or an Administrator grants and revokes.
import { useQuery } from '@tanstack/react-query';
import { ShieldCheck, Trash2, UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { GuildDirectory } from '../../../src/shared/servers';
import type { GrantInput } from '../../../src/shared/settings';
import { fieldErrorsOf } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { Field, RolePicker } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { QueryList } from '../../components/query-list';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { grantAccess, grantsQuery, revokeAccess, settingsKeys } from './api';

const SUBJECTS = [
  { value: 'role', label: 'A role' },
  { value: 'member', label: 'A member (by id)' },
] as const;
const LEVELS = [
  { value: 'view', label: 'View' },
  { value: 'edit', label: 'Edit' },
] as const;

/** The grants, and for the owner or an Administrator, the form to add one. */
export function AccessCard({ guildId, canGrant, directory }: { guildId: string; canGrant: boolean; directory: GuildDirectory | undefined }) {
  const grants = useQuery(grantsQuery(guildId));
  const [subjectType, setSubjectType] = useState<'role' | 'member'>('role');
  const [subjectId, setSubjectId] = useState('');
  const [level, setLevel] = useState<'view' | 'edit'>('view');
  const [until, setUntil] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const invalidate = [settingsKeys.grants(guildId), settingsKeys.all(guildId)];
  const add = useGuildMutation({
    request: (input: GrantInput) => grantAccess(guildId, input),
    invalidate,
    success: (grant) => ({
      title: 'Access granted',
      description: `${grant.subjectType === 'role' ? '@' : ''}${grant.subjectName ?? grant.subjectId} can now ${grant.level} this dashboard.`,
    }),
    failure: { title: 'Could not grant access' },
    onSuccess: () => {
      setSubjectId('');
      setUntil('');
      setErrors({});
    },
  });
  const revoke = useGuildMutation({
    request: (grantId: number) => revokeAccess(guildId, grantId),
    invalidate,
    success: { title: 'Access revoked' },
    failure: { title: 'Could not revoke access' },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The button stays enabled (a disabled one is skipped by Tab and says nothing): an empty pick is answered here.
    if (!subjectId.trim()) {
      setErrors({ subjectId: subjectType === 'role' ? 'Pick the role to give access to.' : 'Type the Discord id of the member to give access to.' });
      return;
    }
    const expiresAt = until ? new Date(until).toISOString() : null;
    add.mutate(
      { subjectType, subjectId: subjectId.trim(), level, expiresAt },
      {
        onError: (error) => setErrors(fieldErrorsOf(error)),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Dashboard Access</CardTitle>
        <CardDescription>
          Server owners, Administrators and members with Manage Server always have access. Give others view or edit access here.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryList
          query={grants}
          what="the access grants"
          empty={{ icon: ShieldCheck, title: 'No one else has access', description: 'Grant a role or a member access to view or edit this dashboard.' }}
        >
          {(items) => (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Who</th>
                    <th scope="col">Access</th>
                    <th scope="col">Until</th>
                    {canGrant ? (
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {items.map((grant) => (
                    <tr key={grant.id}>
                      <td>{grant.subjectType === 'role' ? `@${grant.subjectName ?? grant.subjectId}` : (grant.subjectName ?? grant.subjectId)}</td>
                      <td>
                        <Badge tone={grant.level === 'edit' ? 'warning' : 'neutral'}>{grant.level === 'edit' ? 'Edit' : 'View'}</Badge>
                      </td>
                      <td>{grant.expiresAt ? new Date(grant.expiresAt).toLocaleString() : 'No end'}</td>
                      {canGrant ? (
                        <td>
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() => revoke.mutate(grant.id)}
                            aria-label={`Revoke access of ${grant.subjectName ?? grant.subjectId}`}
                          >
                            <Trash2 size={14} aria-hidden="true" /> Revoke
                          </Button>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryList>
      </CardContent>
      {canGrant ? (
        <CardContent>
          <form className="form-grid" onSubmit={submit} aria-label="Grant dashboard access">
            <Field label="Grant to">
              {(ids) => (
                <Select
                  {...ids}
                  options={SUBJECTS}
                  value={subjectType}
                  onValueChange={(value) => {
                    setSubjectType(value as 'role' | 'member');
                    setSubjectId('');
                  }}
                />
              )}
            </Field>
            {subjectType === 'role' ? (
              <Field label="Role" error={errors.subjectId}>
                {(ids) => (
                  <RolePicker {...ids} value={subjectId || null} onChange={(value) => setSubjectId(value ?? '')} directory={directory} assignableOnly={false} />
                )}
              </Field>
            ) : (
              <Field label="Member id" error={errors.subjectId}>
                {(ids) => (
                  <Input {...ids} inputMode="numeric" value={subjectId} placeholder="e.g. 123456789012345678" onChange={(e) => setSubjectId(e.target.value)} />
                )}
              </Field>
            )}
            <Field label="Access" error={errors.level}>
              {(ids) => <Select {...ids} options={LEVELS} value={level} onValueChange={(value) => setLevel(value as 'view' | 'edit')} />}
            </Field>
            <Field label="Until (optional)" error={errors.expiresAt}>
              {(ids) => <Input {...ids} type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />}
            </Field>
            <div className="row">
              <Button type="submit" disabled={add.isPending}>
                <UserPlus size={16} aria-hidden="true" /> Grant access
              </Button>
            </div>
          </form>
        </CardContent>
      ) : (
        <CardContent>
          <p className="muted small">Only the server owner or an Administrator can grant or revoke access.</p>
        </CardContent>
      )}
    </Card>
  );
}
