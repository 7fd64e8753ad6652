// "Play" on a library track or a station: queued at once when the bot is in a voice channel;
// otherwise the page asks which voice channel to join first (also when the server answers that it
// needs one), then sends it along.
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { QueueAddInput } from '../../../src/shared/music-player';
import { ApiRequestError, errorMessage } from '../../api/client';
import { directoryQuery } from '../../api/guild';
import { Field, VoiceChannelPicker } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { playerControls, playerQuery } from './api';
import { usePlayerAction } from './player-actions';
import { toast } from '../../state/toasts';

/** What to play: a library track or a station, and its name for sentences. */
export type PlayTarget = ({ trackId: number } | { stationId: number }) & { name: string };

/** True when the server refused for want of a voice channel to join. */
function needsChannel(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 400 && Boolean(error.body?.fields?.channelId);
}

/** The play action and the voice channel dialog it may open (render `dialog` once on the page). */
export function usePlay(guildId: string): { play: (target: PlayTarget) => void; pending: boolean; dialog: ReactNode } {
  const player = useQuery(playerQuery(guildId));
  const action = usePlayerAction(guildId);
  const [asking, setAsking] = useState<PlayTarget | null>(null);
  const send = (target: PlayTarget, channelId?: string, onRefused?: (error: unknown) => void) => {
    const { name, ...which } = target;
    const input: QueueAddInput = channelId ? { ...which, channelId } : which;
    action.mutate(
      {
        call: () => playerControls.add(guildId, input),
        after: (view) => {
          setAsking(null);
          const queued = view.queue.length > 0;
          toast({
            title: queued ? 'Added to the queue' : 'Playing',
            description: queued ? `${name} is number ${view.queue.length} in the queue.` : `${name} is playing.`,
          });
        },
      },
      {
        onError: (error) => {
          if (needsChannel(error)) setAsking(target);
          onRefused?.(error);
        },
      },
    );
  };
  const play = (target: PlayTarget) => {
    // The bot is in no voice channel: ask where to play before sending.
    if (player.data && !player.data.channel) setAsking(target);
    else send(target);
  };
  const dialog = (
    <Dialog open={asking !== null} onOpenChange={(open) => (open ? null : setAsking(null))}>
      <DialogContent title="Pick a voice channel" description={asking ? `The bot is in no voice channel yet. Where should it play ${asking.name}?` : ''}>
        {asking ? <ChannelForm guildId={guildId} pending={action.isPending} onPick={(channelId, refused) => send(asking, channelId, refused)} /> : null}
      </DialogContent>
    </Dialog>
  );
  return { play, pending: action.isPending, dialog };
}

/** The dialog's form: a voice channel picker, and the server's refusal under it. */
function ChannelForm({ guildId, pending, onPick }: { guildId: string; pending: boolean; onPick: (id: string, refused: (error: unknown) => void) => void }) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const [channelId, setChannelId] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!channelId) {
          setError('Pick a voice channel.');
          return;
        }
        setError(undefined);
        onPick(channelId, (refusal) =>
          setError(refusal instanceof ApiRequestError ? (refusal.body?.fields?.channelId ?? errorMessage(refusal)) : errorMessage(refusal)),
        );
      }}
    >
      <Field label="Voice channel" error={error}>
        {(ids) => <VoiceChannelPicker {...ids} value={channelId} onChange={setChannelId} directory={directory} allowNone={false} />}
      </Field>
      <div className="dialog-actions">
        <Button type="submit" disabled={pending}>
          {pending ? 'Joining…' : 'Join and play'}
        </Button>
      </div>
    </form>
  );
}
