// The library: the quota meter, uploads with progress, and every track (title, artist, length,
// format, size, uploader) with Play, Rename and Delete.
import { useQuery } from '@tanstack/react-query';
import { FileAudio, Pencil, Play, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { sizeInWords, type Library, type LibraryTrack } from '../../../src/shared/music';
import { useGuildMutation } from '../../api/mutations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { QueryList } from '../../components/query-list';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { deleteTrack, libraryQuery, musicKeys } from './api';
import { formatDuration } from './format';
import type { PlayTarget } from './play-target';
import { TrackDialog } from './track-dialog';
import { UploadPanel } from './upload-panel';

/** How much of the server's room the library uses. */
function QuotaMeter({ library }: { library: Library }) {
  const percent = library.quotaBytes > 0 ? Math.min(100, Math.round((library.usedBytes / library.quotaBytes) * 100)) : 0;
  return (
    <div className="stack-sm">
      <div className="row row-between small">
        <span className="strong">Storage</span>
        <span className="muted" data-testid="music-quota">
          {sizeInWords(library.usedBytes)} of {sizeInWords(library.quotaBytes)} used
        </span>
      </div>
      <progress className="progress" value={library.usedBytes} max={Math.max(library.quotaBytes, 1)} aria-label={`Library storage: ${percent} % used`} />
    </div>
  );
}

/** One track's row. */
function TrackRow({
  track,
  readOnly,
  onPlay,
  onRename,
  onDelete,
}: { track: LibraryTrack; readOnly: boolean } & Record<'onPlay' | 'onRename' | 'onDelete', () => void>) {
  return (
    <li className="music-row">
      <div className="music-row-text">
        <p className="music-row-title truncate">
          {track.title}
          {track.artist ? <span className="muted"> · {track.artist}</span> : null}
        </p>
        <p className="muted small">
          {formatDuration(track.durationSeconds)} · {track.format.toUpperCase()} · {sizeInWords(track.sizeBytes)} · uploaded by {track.uploadedBy.name}
        </p>
      </div>
      {readOnly ? null : (
        <div className="music-row-actions">
          <Button size="sm" variant="outline" onClick={onPlay} aria-label={`Play ${track.title}`}>
            <Play size={14} aria-hidden="true" /> Play
          </Button>
          <Button size="icon" variant="ghost" onClick={onRename} aria-label={`Rename ${track.title}`}>
            <Pencil size={16} aria-hidden="true" />
          </Button>
          <Button size="icon" variant="ghost" onClick={onDelete} aria-label={`Delete ${track.title}`}>
            <Trash2 size={16} aria-hidden="true" />
          </Button>
        </div>
      )}
    </li>
  );
}

/** Props of LibraryCard. */
export interface LibraryCardProps {
  guildId: string;
  readOnly: boolean;
  onPlay: (target: PlayTarget) => void;
}

/** The library card. */
export function LibraryCard({ guildId, readOnly, onPlay }: LibraryCardProps) {
  const library = useQuery(libraryQuery(guildId));
  const [renaming, setRenaming] = useState<LibraryTrack | null>(null);
  const [deleting, setDeleting] = useState<LibraryTrack | null>(null);
  const remove = useGuildMutation({
    request: (track: LibraryTrack) => deleteTrack(guildId, track.id),
    invalidate: [musicKeys.library(guildId)],
    success: { title: 'Track deleted' },
    failure: { title: 'The track was not deleted' },
    onSuccess: () => setDeleting(null),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Library</CardTitle>
        <CardDescription>Audio files uploaded to this server. Members play them with /play; you can play them from here.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        {library.data ? (
          <>
            <QuotaMeter library={library.data} />
            {readOnly ? null : <UploadPanel guildId={guildId} library={library.data} />}
          </>
        ) : library.isPending ? (
          <Skeleton height="2.5rem" />
        ) : null}
        <QueryList
          query={{ ...library, data: library.data?.tracks }}
          what="the library"
          rowHeight="3rem"
          empty={{ icon: FileAudio, title: 'No tracks yet', description: 'Upload audio files and they show here, ready to play.' }}
        >
          {(tracks) => (
            <ul className="music-list" aria-label="Library tracks">
              {tracks.map((track) => (
                <TrackRow
                  key={track.id}
                  track={track}
                  readOnly={readOnly}
                  onPlay={() => onPlay({ trackId: track.id, name: track.title })}
                  onRename={() => setRenaming(track)}
                  onDelete={() => setDeleting(track)}
                />
              ))}
            </ul>
          )}
        </QueryList>
      </CardContent>
      <TrackDialog guildId={guildId} track={renaming} onClose={() => setRenaming(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title="Delete track"
        description={deleting ? `Delete “${deleting.title}” from the library? The file is removed from the server too.` : ''}
        confirmLabel="Delete"
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
      />
    </Card>
  );
}
