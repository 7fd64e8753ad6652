// Up next: the tracks after the current one, each with who added it and its length; move up and
// down (buttons, so the keyboard can reorder: focus stays on the moved track's button) and remove.
import { ArrowDown, ArrowUp, ListMusic, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { PlayerView } from '../../../src/shared/music-player';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { playerControls } from './api';
import { trackLength } from './format';
import { usePlayerAction } from './player-actions';

/** The id of a queue row's move button, to give focus back to it after the move. */
const moveButtonId = (entryId: string, direction: 'up' | 'down') => `queue-${direction}-${entryId}`;

/** Puts focus on the moved track's button; at the top or bottom, its other one. */
function refocus(entryId: string, direction: 'up' | 'down') {
  const same = document.getElementById(moveButtonId(entryId, direction));
  const other = document.getElementById(moveButtonId(entryId, direction === 'up' ? 'down' : 'up'));
  const target = same instanceof HTMLButtonElement && !same.disabled ? same : other;
  target?.focus();
}

/** Props of QueueList. */
export interface QueueListProps {
  guildId: string;
  view: PlayerView;
  readOnly: boolean;
}

/** The queue, or an empty state. */
export function QueueList({ guildId, view, readOnly }: QueueListProps) {
  const action = usePlayerAction(guildId);
  // The moved track, whose button gets focus back once the new order is on screen.
  const moved = useRef<{ entryId: string; direction: 'up' | 'down' } | null>(null);
  useEffect(() => {
    if (!moved.current || action.isPending) return;
    refocus(moved.current.entryId, moved.current.direction);
    moved.current = null;
  });
  if (view.queue.length === 0) {
    return <EmptyState icon={ListMusic} title="The queue is empty" description="Tracks queued with /play or from this page wait here." />;
  }
  // Buttons stay enabled while a change is on its way (a disabled button would drop the keyboard's focus); a second click waits.
  const move = (entryId: string, to: number, direction: 'up' | 'down') => {
    if (action.isPending) return;
    action.mutate({ call: () => playerControls.move(guildId, entryId, to), after: () => (moved.current = { entryId, direction }) });
  };
  const last = view.queue.length;
  return (
    <ol className="music-list" aria-label="Up next">
      {view.queue.map((track, index) => (
        <li key={track.id} className="music-row">
          <span className="music-position muted small" aria-hidden="true">
            {index + 1}
          </span>
          <div className="music-row-text">
            <p className="music-row-title truncate">{track.title}</p>
            <p className="muted small">
              Added by {track.requestedBy.name} · {trackLength(track.durationSeconds)}
            </p>
          </div>
          {readOnly ? null : (
            <div className="music-row-actions">
              <Button
                id={moveButtonId(track.id, 'up')}
                size="icon"
                variant="ghost"
                aria-label={`Move ${track.title} up`}
                disabled={index === 0}
                onClick={() => move(track.id, index, 'up')}
              >
                <ArrowUp size={16} aria-hidden="true" />
              </Button>
              <Button
                id={moveButtonId(track.id, 'down')}
                size="icon"
                variant="ghost"
                aria-label={`Move ${track.title} down`}
                disabled={index === last - 1}
                onClick={() => move(track.id, index + 2, 'down')}
              >
                <ArrowDown size={16} aria-hidden="true" />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Remove ${track.title} from the queue`}
                onClick={() => action.isPending || action.mutate({ call: () => playerControls.remove(guildId, track.id) })}
              >
                <X size={16} aria-hidden="true" />
              </Button>
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
