// Now playing: the track, who asked for it, the voice channel, a progress bar that moves every
// second while it plays ("Live" for a stream), and the controls: pause or resume, skip, stop (after
// a confirmation), the volume (sent when the slider is let go), loop and shuffle.
import { Music2, Pause, Play, Radio, Repeat, Repeat1, Shuffle, SkipForward, Square, Volume2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { LOOP_MODES, type LoopMode, type PlayerView } from '../../../src/shared/music-player';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { playerControls } from './api';
import { formatDuration } from './format';
import { usePlayerAction } from './player-actions';

/** How each loop mode reads. */
const LOOP_LABELS: Record<LoopMode, string> = { off: 'Off', track: 'Track', queue: 'Queue' };

/**
 * Where the track is now: the server's position when the page received it, plus the time since
 * while it plays. Counted from when the answer arrived (not from the server's `at`), so a clock
 * that differs between the server and this computer does not push the bar.
 */
function usePosition(view: PlayerView, receivedAt: number): number {
  const [now, setNow] = useState(() => Date.now());
  const playing = view.status === 'playing';
  useEffect(() => {
    if (!playing) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [playing, receivedAt]);
  const elapsed = playing ? Math.max(0, (now - receivedAt) / 1000) : 0;
  const position = view.positionSeconds + elapsed;
  const duration = view.current?.durationSeconds ?? null;
  return duration === null ? position : Math.min(position, duration);
}

/** The progress bar and the times under it. */
function Progress({ view, receivedAt }: { view: PlayerView; receivedAt: number }) {
  const position = usePosition(view, receivedAt);
  const duration = view.current?.durationSeconds ?? null;
  if (duration === null) {
    return (
      <div className="row music-times">
        <Badge tone="danger">
          <Radio size={12} aria-hidden="true" /> Live
        </Badge>
        <span className="muted small">Playing for {formatDuration(position)}</span>
      </div>
    );
  }
  return (
    <div className="stack-sm">
      <progress className="progress" value={position} max={Math.max(duration, 1)} aria-label="Track progress" />
      <div className="row row-between muted small music-times" data-testid="music-position">
        <span>{formatDuration(position)}</span>
        <span>{formatDuration(duration)}</span>
      </div>
    </div>
  );
}

/** The volume slider: moves freely, and is sent once it is let go (pointer up, or a key released). */
function VolumeSlider({ guildId, volume, readOnly }: { guildId: string; volume: number; readOnly: boolean }) {
  const action = usePlayerAction(guildId);
  const [moving, setMoving] = useState<number | null>(null);
  // The value on its way: a key released and then the focus leaving must not send it twice.
  const [sending, setSending] = useState<number | null>(null);
  const shown = moving ?? volume;
  const commit = () => {
    if (moving === null || moving === sending) return;
    const value = moving;
    if (value === volume) {
      setMoving(null);
      return;
    }
    setSending(value);
    action.mutate(
      { call: () => playerControls.volume(guildId, value) },
      {
        onSettled: () => {
          setSending(null);
          setMoving((current) => (current === value ? null : current));
        },
      },
    );
  };
  return (
    <div className="music-volume">
      <Volume2 size={16} aria-hidden="true" />
      <label className="sr-only" htmlFor={`music-volume-${guildId}`}>
        Volume
      </label>
      <input
        id={`music-volume-${guildId}`}
        className="music-range"
        type="range"
        min={1}
        max={150}
        step={1}
        value={shown}
        aria-valuetext={`${shown} percent`}
        disabled={readOnly}
        onChange={(event) => setMoving(Number(event.target.value))}
        onPointerUp={commit}
        onKeyUp={commit}
        onBlur={commit}
      />
      <output className="small music-volume-value" htmlFor={`music-volume-${guildId}`}>
        {shown} %
      </output>
    </div>
  );
}

/** Props of PlayerPanel. */
export interface PlayerPanelProps {
  guildId: string;
  view: PlayerView;
  /** When the page received `view` (ms since the epoch). */
  receivedAt: number;
  readOnly: boolean;
}

/** The Now playing card's body. */
export function PlayerPanel({ guildId, view, receivedAt, readOnly }: PlayerPanelProps) {
  const action = usePlayerAction(guildId);
  const [stopping, setStopping] = useState(false);
  const current = view.current;
  if (!current || view.status === 'idle') {
    return (
      <EmptyState
        icon={Music2}
        title="Nothing is playing…"
        description="Members start music with /play in a voice channel; you can also play a library track or a station from this page."
      />
    );
  }
  const busy = action.isPending;
  const paused = view.status === 'paused';
  return (
    <div className="stack">
      <div className="stack-sm">
        <div className="row row-between">
          <p className="music-title" data-testid="now-playing-title">
            {current.title}
          </p>
          <Badge tone={view.status === 'playing' ? 'success' : view.status === 'paused' ? 'warning' : 'neutral'} role="status" data-testid="player-status">
            {view.status === 'playing' ? 'Playing' : view.status === 'paused' ? 'Paused' : 'Connecting…'}
          </Badge>
        </div>
        <p className="muted small">
          Asked for by {current.requestedBy.name}
          {view.channel ? ` · in 🔊 ${view.channel.name}` : ''}
        </p>
      </div>
      <Progress view={view} receivedAt={receivedAt} />
      {readOnly ? (
        <p className="muted small">
          Volume {view.volume} % · Loop: {LOOP_LABELS[view.loop].toLowerCase()}
        </p>
      ) : (
        <>
          <div className="row music-controls" role="group" aria-label="Player controls">
            <Button
              size="sm"
              onClick={() => action.mutate({ call: () => (paused ? playerControls.resume(guildId) : playerControls.pause(guildId)) })}
              disabled={busy || view.status === 'connecting'}
            >
              {paused ? <Play size={16} aria-hidden="true" /> : <Pause size={16} aria-hidden="true" />} {paused ? 'Resume' : 'Pause'}
            </Button>
            <Button size="sm" variant="outline" onClick={() => action.mutate({ call: () => playerControls.skip(guildId) })} disabled={busy}>
              <SkipForward size={16} aria-hidden="true" /> Skip
            </Button>
            <Button size="sm" variant="outline" onClick={() => setStopping(true)} disabled={busy}>
              <Square size={16} aria-hidden="true" /> Stop
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => action.mutate({ call: () => playerControls.shuffle(guildId) })}
              disabled={busy || view.queue.length < 2}
            >
              <Shuffle size={16} aria-hidden="true" /> Shuffle
            </Button>
          </div>
          <div className="row row-between music-settings-row">
            <VolumeSlider guildId={guildId} volume={view.volume} readOnly={readOnly} />
            <div className="segmented" role="group" aria-label="Loop">
              {LOOP_MODES.map((mode) => (
                <Button
                  key={mode}
                  size="sm"
                  variant={view.loop === mode ? 'primary' : 'ghost'}
                  aria-pressed={view.loop === mode}
                  onClick={() => view.loop === mode || action.mutate({ call: () => playerControls.loop(guildId, mode) })}
                  disabled={busy}
                >
                  {mode === 'track' ? <Repeat1 size={14} aria-hidden="true" /> : mode === 'queue' ? <Repeat size={14} aria-hidden="true" /> : null}
                  {LOOP_LABELS[mode]}
                </Button>
              ))}
            </div>
          </div>
        </>
      )}
      <ConfirmDialog
        open={stopping}
        onOpenChange={setStopping}
        title="Stop the music?"
        description={`The bot stops playing, clears the queue${view.queue.length > 0 ? ` (${view.queue.length} waiting)` : ''} and leaves the voice channel.`}
        confirmLabel="Stop"
        pending={busy}
        onConfirm={() => action.mutate({ call: () => playerControls.stop(guildId), after: () => setStopping(false) })}
      />
    </div>
  );
}
