// The Raid protection card of the moderation page (issue 24, point 4): raid mode now ("Raid mode
// since 17:20 — verification raised to High, invites paused, 14 members timed out") with Start and
// End raid mode, and the raid and account-age rules' settings, each saying what it does, saved with
// the page's other settings (the shared settings form; raidDraftOf and raidBodyOf join its draft).
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert, ShieldCheck, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import type { Duration } from '../../../src/shared/moderation';
import {
  ACCOUNT_AGE_ACTION_LABELS,
  ACCOUNT_AGE_ACTIONS,
  accountAgeLabel,
  RAID_LIMITS,
  RAISED_LEVELS,
  raidSummary,
  VERIFICATION_HINTS,
  verificationName,
  LEVEL_NUMBERS,
  type AccountAgeAction,
  type RaisedLevel,
} from '../../../src/shared/raids';
import type { GuildDirectory } from '../../../src/shared/servers';
import type { SettingsUpdate, SettingsView } from '../../../src/shared/settings';
import { ApiRequestError } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { Field, RolePicker, SwitchRow } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { parseWhole } from '../../numbers';
import { moderationKeys } from './api';
import { DurationSelect } from './duration-select';
import { raidKey, raidStatusQuery, runRaidAction } from './raid-api';

/** The raid settings as the form holds them (numbers as typed). */
export interface RaidDraft {
  raidRule: Omit<SettingsView['raidRule'], 'joins' | 'seconds' | 'quietMinutes'> & { joins: string; seconds: string; quietMinutes: string };
  accountAgeRule: Omit<SettingsView['accountAgeRule'], 'minDays'> & { minDays: string };
}

/** The form filled from the server's settings. */
export function raidDraftOf(view: SettingsView): RaidDraft {
  const { joins, seconds, quietMinutes, ...rule } = view.raidRule;
  const { minDays, ...age } = view.accountAgeRule;
  return {
    raidRule: { ...rule, joins: String(joins), seconds: String(seconds), quietMinutes: String(quietMinutes) },
    accountAgeRule: { ...age, minDays: String(minDays) },
  };
}

/** The raid part of the PUT body. */
export function raidBodyOf(draft: RaidDraft): Pick<SettingsUpdate, 'raidRule' | 'accountAgeRule'> {
  const { raidRule: rule, accountAgeRule: age } = draft;
  return {
    raidRule: { ...rule, joins: parseWhole(rule.joins), seconds: parseWhole(rule.seconds), quietMinutes: parseWhole(rule.quietMinutes) },
    accountAgeRule: { ...age, minDays: parseWhole(age.minDays), duration: age.action === 'timeout' ? age.duration : null },
  };
}

/** What the card receives from the page's settings form. */
export interface RaidCardProps {
  guildId: string;
  draft: RaidDraft;
  update: (patch: Partial<RaidDraft>) => void;
  errors: Record<string, string>;
  readOnly: boolean;
  directory: GuildDirectory | undefined;
}

const LEVEL_OPTIONS = RAISED_LEVELS.map((level) => ({ value: level, label: verificationName(LEVEL_NUMBERS[level]) }));
const AGE_OPTIONS = ACCOUNT_AGE_ACTIONS.map((action) => ({ value: action, label: ACCOUNT_AGE_ACTION_LABELS[action] }));
const START_QUESTION =
  'Raise the verification level and pause invites now, as the rule below says? Members who join while it lasts are timed out if the rule asks. ' +
  'It falls back by itself once joins are quiet, or when you end it.';
const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The card: raid mode now, then the two rules. */
export function RaidCard(props: RaidCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="title-with-icon">
          <ShieldAlert size={18} aria-hidden="true" /> Raid protection
        </CardTitle>
        <CardDescription>
          When many accounts join at once, raid mode locks the door: it raises the verification level, pauses invites, times out the joiners and alerts your
          moderators in the log channel, then falls back by itself once joins are quiet again. Zeppelin users know it as antiraid.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <RaidNow guildId={props.guildId} readOnly={props.readOnly} />
        <RaidRuleFields {...props} />
        <AccountAgeFields {...props} />
      </CardContent>
    </Card>
  );
}

/** Raid mode now, with Start or End raid mode. */
function RaidNow({ guildId, readOnly }: { guildId: string; readOnly: boolean }) {
  const status = useQuery(raidStatusQuery(guildId));
  const [asking, setAsking] = useState(false);
  const action = useGuildMutation({
    request: (which: 'start' | 'end') => runRaidAction(guildId, which),
    invalidate: [raidKey(guildId), moderationKeys.stats(guildId), [...moderationKeys.all(guildId), 'logs']],
    success: (result) => ({ title: result.status.active ? 'Raid mode on' : 'Raid mode off', description: result.message }),
    failure: (error) => ({
      title: 'Raid mode',
      description: error instanceof ApiRequestError && error.body ? error.body.message : 'Raid mode could not be changed.',
    }),
    onSuccess: () => setAsking(false),
  });
  if (status.isPending) {
    return (
      <div className="stack-sm" role="status" aria-busy="true" aria-label="Loading raid mode">
        <Skeleton width="60%" height="1.25rem" />
        <Skeleton width="8rem" height="2.25rem" />
      </div>
    );
  }
  if (status.error || !status.data) {
    return (
      <p className="field-error" role="alert">
        Raid mode could not be read.
      </p>
    );
  }
  const raid = status.data;
  return (
    <section className="stack-sm" aria-label="Raid mode">
      <div className="row" aria-live="polite">
        <Badge tone={raid.active ? 'danger' : 'success'}>{raid.active ? 'Raid mode' : 'Calm'}</Badge>
        <span data-testid="raid-summary">{raidSummary(raid, clock)}</span>
      </div>
      {raid.active && raid.fallsBackAt ? (
        <p className="muted small">
          {raid.trigger === 'manual' && raid.startedByName ? `Started by ${raid.startedByName}. ` : ''}
          {raid.joinCount > 0 ? `Set off by ${raid.joinCount} joins in ${raid.windowSeconds} seconds. ` : ''}
          Falls back by itself at {clock(raid.fallsBackAt)} if no new burst of joins comes.
        </p>
      ) : null}
      {raid.problems.map((problem) => (
        <p key={problem} className="notice notice-warning" role="status">
          {problem}
        </p>
      ))}
      <div className="row">
        {raid.active ? (
          <Button variant="success" disabled={readOnly || action.isPending} onClick={() => action.mutate('end')}>
            <ShieldCheck size={16} aria-hidden="true" /> {action.isPending ? 'Ending…' : 'End raid mode'}
          </Button>
        ) : (
          <Button variant="danger" disabled={readOnly || action.isPending} onClick={() => setAsking(true)}>
            <ShieldOff size={16} aria-hidden="true" /> Start raid mode
          </Button>
        )}
      </div>
      <Dialog open={asking} onOpenChange={setAsking}>
        {asking ? (
          <DialogContent title="Start raid mode" description={START_QUESTION}>
            <div className="dialog-actions">
              <Button variant="outline" onClick={() => setAsking(false)}>
                Cancel
              </Button>
              <Button variant="danger" disabled={action.isPending} onClick={() => action.mutate('start')}>
                {action.isPending ? 'Starting…' : 'Start raid mode'}
              </Button>
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
    </section>
  );
}

/** A whole-number field of a rule. */
function NumberField(props: {
  label: string;
  hint: string;
  value: string;
  min: number;
  max: number;
  error?: string;
  disabled: boolean;
  onChange: (v: string) => void;
}) {
  return (
    <Field label={props.label} hint={props.hint} error={props.error}>
      {(ids) => (
        <Input
          {...ids}
          type="number"
          inputMode="numeric"
          min={props.min}
          max={props.max}
          step={1}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          disabled={props.disabled}
        />
      )}
    </Field>
  );
}

/** The raid rule: when raid mode turns on, what it does, and when it falls back. */
function RaidRuleFields({ draft, update, errors, readOnly, directory }: RaidCardProps) {
  const rule = draft.raidRule;
  const set = (patch: Partial<RaidDraft['raidRule']>) => update({ raidRule: { ...rule, ...patch } });
  const e = (key: string) => errors[`raidRule.${key}`];
  return (
    <div className="stack-sm">
      <SwitchRow
        label="Raid rule"
        description={`On: ${rule.joins || 'N'} joins within ${rule.seconds || 'M'} seconds turn raid mode on. Off: raid mode only starts by hand.`}
        checked={rule.enabled}
        onChange={(enabled) => set({ enabled })}
        disabled={readOnly}
        error={e('enabled')}
      />
      <div className="grid grid-2 align-start">
        <NumberField
          label="Joins"
          hint={`${RAID_LIMITS.joins.min} to ${RAID_LIMITS.joins.max} new members…`}
          value={rule.joins}
          {...RAID_LIMITS.joins}
          error={e('joins')}
          disabled={readOnly}
          onChange={(joins) => set({ joins })}
        />
        <NumberField
          label="Within (seconds)"
          hint={`…within ${RAID_LIMITS.seconds.min} to ${RAID_LIMITS.seconds.max} seconds.`}
          value={rule.seconds}
          {...RAID_LIMITS.seconds}
          error={e('seconds')}
          disabled={readOnly}
          onChange={(seconds) => set({ seconds })}
        />
        <NumberField
          label="Quiet period (minutes)"
          hint="Raid mode falls back after this long without another burst: the level goes back (unless a moderator changed it), invites resume."
          value={rule.quietMinutes}
          {...RAID_LIMITS.quietMinutes}
          error={e('quietMinutes')}
          disabled={readOnly}
          onChange={(quietMinutes) => set({ quietMinutes })}
        />
        <Field
          label="Alert role (optional)"
          hint="Pinged by the alert in the log channel; nobody else is pinged. The role must be mentionable."
          error={e('alertRoleId')}
        >
          {(ids) => (
            <RolePicker
              {...ids}
              directory={directory}
              value={rule.alertRoleId}
              onChange={(alertRoleId) => set({ alertRoleId })}
              assignableOnly={false}
              disabled={readOnly}
            />
          )}
        </Field>
      </div>
      <SwitchRow
        label="Raise the verification level"
        description="New members must meet the level before they can talk; the previous level comes back after."
        checked={rule.raiseVerification}
        onChange={(raiseVerification) => set({ raiseVerification })}
        disabled={readOnly}
        error={e('raiseVerification')}
      />
      <Field label="Raise it to" hint={`Members then need ${VERIFICATION_HINTS[rule.verificationLevel]}.`} error={e('verificationLevel')}>
        {(ids) => (
          <Select
            id={ids.id}
            aria-label="Raise it to"
            value={rule.verificationLevel}
            onValueChange={(value) => set({ verificationLevel: value as RaisedLevel })}
            options={LEVEL_OPTIONS}
            disabled={readOnly || !rule.raiseVerification}
          />
        )}
      </Field>
      <SwitchRow
        label="Pause invites"
        description="Nobody joins through an invite while raid mode lasts (Discord's pause, renewed every day until it ends)."
        checked={rule.pauseInvites}
        onChange={(pauseInvites) => set({ pauseInvites })}
        disabled={readOnly}
        error={e('pauseInvites')}
      />
      <SwitchRow
        label="Time out the joiners"
        description="The accounts of the burst, and anyone joining during raid mode, are timed out (each a case in the log)."
        checked={rule.timeoutJoiners}
        onChange={(timeoutJoiners) => set({ timeoutJoiners })}
        disabled={readOnly}
        error={e('timeoutJoiners')}
      />
      <Field label="Timeout length" error={e('timeoutDuration')}>
        {(ids) => (
          <DurationSelect
            id={ids.id}
            label="Timeout length"
            value={rule.timeoutDuration}
            onChange={(value) => value && set({ timeoutDuration: value })}
            disabled={readOnly || !rule.timeoutJoiners}
          />
        )}
      </Field>
      <SwitchRow
        label="Alert the moderators"
        description="A message in the log channel (Bot Settings) when raid mode starts, and an all clear when it ends."
        checked={rule.alert}
        onChange={(alert) => set({ alert })}
        disabled={readOnly}
        error={e('alert')}
      />
    </div>
  );
}

/** The account-age rule. */
function AccountAgeFields({ draft, update, errors, readOnly }: RaidCardProps) {
  const rule = draft.accountAgeRule;
  const set = (patch: Partial<RaidDraft['accountAgeRule']>) => update({ accountAgeRule: { ...rule, ...patch } });
  const e = (key: string) => errors[`accountAgeRule.${key}`];
  const days = parseWhole(rule.minDays);
  return (
    <div className="stack-sm">
      <SwitchRow
        label="Account-age rule"
        description={accountAgeLabel({ ...rule, minDays: days > 0 ? days : RAID_LIMITS.accountAgeDays.min })}
        checked={rule.enabled}
        onChange={(enabled) => set({ enabled })}
        disabled={readOnly}
        error={e('enabled')}
      />
      <div className="grid grid-2 align-start">
        <NumberField
          label="Younger than (days)"
          hint="The account's age comes from its Discord id."
          value={rule.minDays}
          {...RAID_LIMITS.accountAgeDays}
          error={e('minDays')}
          disabled={readOnly}
          onChange={(minDays) => set({ minDays })}
        />
        <Field label="Then" error={e('action')}>
          {(ids) => (
            <Select
              id={ids.id}
              aria-label="Then"
              value={rule.action}
              onValueChange={(value) => set({ action: value as AccountAgeAction })}
              options={AGE_OPTIONS}
              disabled={readOnly}
            />
          )}
        </Field>
        {rule.action === 'timeout' ? (
          <Field label="Timeout length" error={e('duration')}>
            {(ids) => (
              <DurationSelect
                id={ids.id}
                label="Account-age timeout length"
                value={rule.duration}
                onChange={(duration: Duration | null) => set({ duration })}
                disabled={readOnly}
              />
            )}
          </Field>
        ) : null}
      </div>
    </div>
  );
}
