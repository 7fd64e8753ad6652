// The Role rewards card: whether rewards stack (a setting, saved with the form), the rewards with
// delete, and the add row (level and role). Adding and deleting take effect at once. The card sits
// inside the settings form, so the add row is a group, not a nested form: Enter in it adds.
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Award, Plus, Trash2 } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import type { LevelReward } from '../../../src/shared/leveling';
import type { GuildDirectory } from '../../../src/shared/servers';
import { fieldErrorsOf } from '../../api/client';
import { directoryQuery, guildKeys } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Field, RolePicker, SwitchRow } from '../../components/form';
import { QueryList } from '../../components/query-list';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { addReward, deleteReward, levelingKeys, rewardsQuery } from './api';
import { parseWhole } from '../../numbers';

/** Props of RoleRewards. */
export interface RoleRewardsProps {
  guildId: string;
  readOnly: boolean;
  stack: boolean;
  onStackChange: (stack: boolean) => void;
  stackError?: string;
}

/** The role's name as the list shows it, and why the bot cannot give it (if it cannot). */
function describeRole(reward: LevelReward, directory: GuildDirectory | undefined): { name: string; problem: string | null } {
  const role = directory?.roles.find((candidate) => candidate.id === reward.roleId);
  const name = `@${role?.name ?? reward.roleName ?? reward.roleId}`;
  if (!directory) return { name, problem: null };
  if (!role) return { name, problem: 'This role was deleted: the reward gives nothing.' };
  if (!directory.bot.manageRoles) return { name, problem: `${directory.bot.name} needs the Manage Roles permission to give it.` };
  if (!role.assignable) return { name, problem: `It is above ${directory.bot.name}'s highest role: move the bot's role above it.` };
  return { name, problem: null };
}

/** The add row: a level and a role. */
function AddReward({ guildId, directory }: { guildId: string; directory: GuildDirectory | undefined }) {
  const [level, setLevel] = useState('');
  const [roleId, setRoleId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useGuildMutation({
    request: (input: { level: number; roleId: string }) => addReward(guildId, input),
    invalidate: [levelingKeys.rewards(guildId), guildKeys.diagnostics(guildId)],
    success: (reward) => ({ title: 'Role reward added', description: `Members who reach level ${reward.level} get @${reward.roleName ?? reward.roleId}.` }),
    failure: { title: 'Could not add the role reward' },
    onSuccess: () => {
      setErrors({});
      setLevel('');
      setRoleId(null);
    },
  });
  const submit = () => {
    if (!roleId) {
      setErrors({ roleId: 'Pick the role to give.' });
      return;
    }
    add.mutate({ level: parseWhole(level), roleId }, { onError: (error) => setErrors(fieldErrorsOf(error)) });
  };
  // Enter adds the reward instead of submitting the settings form around it.
  const onEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    submit();
  };
  return (
    <div className="stack-sm" role="group" aria-label="Add a role reward">
      <div className="form-grid">
        <Field label="Level" hint="From 2 to 1000." error={errors.level}>
          {(ids) => (
            <Input
              {...ids}
              type="number"
              inputMode="numeric"
              min={2}
              max={1000}
              step={1}
              placeholder="10"
              value={level}
              onChange={(event) => setLevel(event.target.value)}
              onKeyDown={onEnter}
            />
          )}
        </Field>
        <Field label="Reward role" error={errors.roleId}>
          {(ids) => <RolePicker {...ids} value={roleId} onChange={setRoleId} directory={directory} allowNone={false} />}
        </Field>
      </div>
      <div className="row">
        <Button variant="secondary" onClick={submit} disabled={add.isPending}>
          <Plus size={16} aria-hidden="true" /> {add.isPending ? 'Adding…' : 'Add Reward'}
        </Button>
      </div>
    </div>
  );
}

/** The Role rewards card. */
export function RoleRewards({ guildId, readOnly, stack, onStackChange, stackError }: RoleRewardsProps) {
  const rewards = useQuery(rewardsQuery(guildId));
  const directory = useQuery(directoryQuery(guildId)).data;
  const [deleting, setDeleting] = useState<LevelReward | null>(null);
  const remove = useGuildMutation({
    request: (id: number) => deleteReward(guildId, id),
    invalidate: [levelingKeys.rewards(guildId), guildKeys.diagnostics(guildId)],
    success: { title: 'Role reward removed' },
    failure: { title: 'Could not remove the role reward' },
    onSuccess: () => setDeleting(null),
  });
  const deletingName = deleting ? describeRole(deleting, directory).name : '';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Role rewards</CardTitle>
        <CardDescription>Roles members get when they reach a level. Adding or deleting a reward applies at once.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <SwitchRow
          label="Stack role rewards"
          description={
            <>
              {stack ? 'Members keep every reward up to their level.' : 'Members keep only their highest reward; a new one replaces the lower ones.'} Saved with
              Save Settings.
            </>
          }
          checked={stack}
          onChange={onStackChange}
          disabled={readOnly}
          error={stackError}
        />
        <QueryList
          query={rewards}
          what="the role rewards"
          empty={{
            icon: Award,
            title: 'No role rewards yet',
            description: readOnly ? 'Reaching a level gives no role.' : 'Add one below: reaching the level gives the role.',
          }}
        >
          {(items) => (
            <ul className="history-list" aria-label="Role rewards">
              {items.map((reward) => {
                const { name, problem } = describeRole(reward, directory);
                return (
                  <li key={reward.id} className="history-item">
                    <div className="history-head">
                      <span className="strong">Level {reward.level}</span>
                      <span aria-hidden="true">→</span>
                      <span className="sr-only">gives</span>
                      <span className="grow">{name}</span>
                      {readOnly ? null : (
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Delete the level ${reward.level} reward (${name})`}
                          onClick={() => setDeleting(reward)}
                        >
                          <Trash2 size={16} aria-hidden="true" />
                        </Button>
                      )}
                    </div>
                    {problem ? (
                      <p className="error-text small">
                        <AlertTriangle size={14} aria-hidden="true" /> {problem}
                      </p>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </QueryList>
        {readOnly ? null : <AddReward guildId={guildId} directory={directory} />}
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this role reward?"
        description={`Reaching level ${deleting?.level ?? ''} will no longer give ${deletingName}. Members keep the role if they already have it.`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </Card>
  );
}
