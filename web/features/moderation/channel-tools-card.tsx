// The Channel tools card of the moderation page (issue 24, point 2): pick a channel, then purge its
// recent messages (with filters, after a confirm dialog), set its slowmode, or lock and unlock it,
// its current slowmode and lock shown. The server checks the moderator's own permissions in that
// channel and answers with the sentence shown in the toast.
import { useQuery } from '@tanstack/react-query';
import { Lock, LockOpen, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { PURGE_LIMITS, SLOWMODE_LIMITS, slowmodeLabel, type ChannelToolResult, type PurgeInput } from '../../../src/shared/channel-tools';
import { MODERATION_MESSAGES } from '../../../src/shared/moderation';
import { directoryQuery } from '../../api/guild';
import { ApiRequestError, queryClient } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { ChannelPicker, Field, MemberPicker, SwitchRow } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { channelToolStateQuery, moderationKeys, runChannelTool, type ChannelTool } from './api';

/** A whole number typed in a field, or null when it is not one within [min, max]. */
function wholeIn(text: string, min: number, max: number): number | null {
  const value = Number(text);
  return text.trim() !== '' && Number.isInteger(value) && value >= min && value <= max ? value : null;
}

/** The card: a channel picker, then the tools on the channel picked. */
export function ChannelToolsCard({ guildId, readOnly }: { guildId: string; readOnly: boolean }) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const [channelId, setChannelId] = useState<string | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Channel tools</CardTitle>
        <CardDescription>Purge recent messages, set slowmode, or lock a channel. Each is recorded as a case in the log below.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <Field label="Channel">{(ids) => <ChannelPicker {...ids} directory={directory} value={channelId} onChange={setChannelId} allowNone={false} />}</Field>
        {channelId ? <Tools key={channelId} guildId={guildId} channelId={channelId} readOnly={readOnly} /> : null}
      </CardContent>
    </Card>
  );
}

/** One tool's request, refreshing the channel's state and the log, the server's sentence in the toast. */
function useTool(guildId: string, channelId: string, onSuccess?: (result: ChannelToolResult) => void) {
  return useGuildMutation({
    request: ({ tool, body }: { tool: ChannelTool; body?: PurgeInput | { seconds: number } }) => runChannelTool(guildId, channelId, tool, body),
    // The answer carries the channel as the tool left it: read back at once, the bot's view of Discord might not have caught up.
    invalidate: [moderationKeys.stats(guildId), [...moderationKeys.all(guildId), 'logs']],
    success: (result) => ({ title: MODERATION_MESSAGES.completedTitle, description: result.message }),
    failure: (error) => ({
      title: MODERATION_MESSAGES.failedTitle,
      description: error instanceof ApiRequestError && error.body ? error.body.message : MODERATION_MESSAGES.failedFallback,
    }),
    onSuccess: (result) => {
      queryClient.setQueryData(channelToolStateQuery(guildId, channelId).queryKey, result.state);
      onSuccess?.(result);
    },
  });
}

function Tools({ guildId, channelId, readOnly }: { guildId: string; channelId: string; readOnly: boolean }) {
  const state = useQuery(channelToolStateQuery(guildId, channelId));
  const [seconds, setSeconds] = useState('');
  const [secondsError, setSecondsError] = useState<string | undefined>();
  const tool = useTool(guildId, channelId);
  const locked = state.data?.locked ?? false;

  if (state.error) {
    return (
      <p className="field-error" role="alert">
        {state.error instanceof ApiRequestError && state.error.body ? state.error.body.message : 'The channel could not be read.'}
      </p>
    );
  }
  const setSlowmode = () => {
    const value = wholeIn(seconds, SLOWMODE_LIMITS.min, SLOWMODE_LIMITS.max);
    if (value === null) {
      setSecondsError(`Give a whole number of seconds from ${SLOWMODE_LIMITS.min} to ${SLOWMODE_LIMITS.max}.`);
      return;
    }
    setSecondsError(undefined);
    tool.mutate({ tool: 'slowmode', body: { seconds: value } });
  };
  return (
    <div className="stack">
      <div className="row" aria-live="polite">
        <Badge tone={locked ? 'warning' : 'success'}>{locked ? 'Locked' : 'Open'}</Badge>
        <span className="muted small">Slowmode: {state.data ? slowmodeLabel(state.data.slowmodeSeconds) : '…'}</span>
      </div>
      <div className="row">
        <Button
          variant={locked ? 'success' : 'secondary'}
          disabled={readOnly || tool.isPending || !state.data}
          onClick={() => tool.mutate({ tool: locked ? 'unlock' : 'lock' })}
        >
          {locked ? <LockOpen size={16} aria-hidden="true" /> : <Lock size={16} aria-hidden="true" />} {locked ? 'Unlock channel' : 'Lock channel'}
        </Button>
      </div>
      <Field label="Slowmode (seconds)" hint="Seconds between one member's messages, up to 21600 (6 hours). 0 turns it off." error={secondsError}>
        {(ids) => (
          <div className="row">
            <Input
              {...ids}
              type="number"
              inputMode="numeric"
              min={SLOWMODE_LIMITS.min}
              max={SLOWMODE_LIMITS.max}
              step={1}
              value={seconds}
              placeholder={String(state.data?.slowmodeSeconds ?? 0)}
              onChange={(event) => setSeconds(event.target.value)}
              disabled={readOnly}
            />
            <Button variant="secondary" disabled={readOnly || tool.isPending} onClick={setSlowmode}>
              Set slowmode
            </Button>
          </div>
        )}
      </Field>
      <PurgeForm guildId={guildId} channelId={channelId} channelName={state.data?.name ?? 'this channel'} readOnly={readOnly} />
    </div>
  );
}

/** Purge's filters, and the dialog that asks before deleting. */
function PurgeForm({ guildId, channelId, channelName, readOnly }: { guildId: string; channelId: string; channelName: string; readOnly: boolean }) {
  const [count, setCount] = useState('10');
  const [userId, setUserId] = useState<string | null>(null);
  const [contains, setContains] = useState('');
  const [bots, setBots] = useState(false);
  const [links, setLinks] = useState(false);
  const [asking, setAsking] = useState<PurgeInput | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const purge = useTool(guildId, channelId, () => setAsking(null));

  const ask = () => {
    const value = wholeIn(count, PURGE_LIMITS.minCount, PURGE_LIMITS.maxCount);
    if (value === null) {
      setErrors({ count: `Give a whole number from ${PURGE_LIMITS.minCount.toLocaleString('en-US')} to ${PURGE_LIMITS.maxCount.toLocaleString('en-US')}.` });
      return;
    }
    setErrors({});
    const text = contains.trim();
    setAsking({ count: value, ...(userId ? { userId } : {}), ...(text ? { contains: text } : {}), ...(bots ? { bots } : {}), ...(links ? { links } : {}) });
  };
  return (
    <div className="stack-sm">
      <p className="label">Purge messages</p>
      <div className="grid grid-2 align-start">
        <Field label="How many" hint="Up to 100 of the latest messages; Discord does not bulk delete messages 14 days old or older." error={errors.count}>
          {(ids) => (
            <Input
              {...ids}
              type="number"
              inputMode="numeric"
              min={PURGE_LIMITS.minCount}
              max={PURGE_LIMITS.maxCount}
              step={1}
              value={count}
              onChange={(event) => setCount(event.target.value)}
              disabled={readOnly}
            />
          )}
        </Field>
        <Field label="From member (optional)">
          {(ids) => <MemberPicker {...ids} guildId={guildId} value={userId} onChange={setUserId} placeholder="Anyone" />}
        </Field>
        <Field label="Containing (optional)">
          {(ids) => (
            <Input {...ids} maxLength={PURGE_LIMITS.maxContains} value={contains} onChange={(event) => setContains(event.target.value)} disabled={readOnly} />
          )}
        </Field>
        <div className="stack-sm">
          <SwitchRow label="Only from bots" checked={bots} onChange={setBots} disabled={readOnly} />
          <SwitchRow label="Only with links" checked={links} onChange={setLinks} disabled={readOnly} />
        </div>
      </div>
      <div className="row">
        <Button variant="danger" disabled={readOnly} onClick={ask}>
          <Trash2 size={16} aria-hidden="true" /> Purge…
        </Button>
      </div>
      <Dialog open={asking !== null} onOpenChange={(open) => (open ? null : setAsking(null))}>
        {asking ? (
          <DialogContent
            title="Purge messages"
            description={`Delete up to ${asking.count} of the latest messages in #${channelName} that match? This cannot be undone.`}
          >
            <div className="dialog-actions">
              <Button variant="outline" onClick={() => setAsking(null)}>
                Cancel
              </Button>
              <Button variant="danger" disabled={purge.isPending} onClick={() => purge.mutate({ tool: 'purge', body: asking })}>
                {purge.isPending ? 'Working…' : 'Delete messages'}
              </Button>
            </div>
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}
