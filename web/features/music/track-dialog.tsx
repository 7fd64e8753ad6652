// Rename a library track: its title and artist, saved over the version the page loaded (only what
// changed is sent; a change made meanwhile to the same field makes the server ask).
import { useState } from 'react';
import { TRACK_TEXT_MAX, type LibraryTrack } from '../../../src/shared/music';
import { fieldErrorsOf } from '../../api/client';
import { changedOnly } from '../../api/changes';
import { useGuildMutation } from '../../api/mutations';
import { Field } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { musicKeys, patchTrack } from './api';

/** Props of TrackDialog. */
export interface TrackDialogProps {
  guildId: string;
  track: LibraryTrack | null;
  onClose: () => void;
}

/** The dialog; its form starts from the track each time it opens. */
export function TrackDialog({ guildId, track, onClose }: TrackDialogProps) {
  return (
    <Dialog open={track !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent title="Rename track" description={track ? `Change how “${track.title}” is listed.` : ''}>
        {track ? <TrackForm key={track.id} guildId={guildId} track={track} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function TrackForm({ guildId, track, onDone }: { guildId: string; track: LibraryTrack; onDone: () => void }) {
  const [title, setTitle] = useState(track.title);
  const [artist, setArtist] = useState(track.artist ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useGuildMutation({
    request: () => {
      const body = { title: title.trim(), artist: artist.trim() || null };
      const changes = changedOnly(body, { title: track.title, artist: track.artist });
      return patchTrack(guildId, track.id, { ...changes, baseVersion: track.version });
    },
    invalidate: [musicKeys.library(guildId)],
    success: { title: 'Track renamed' },
    failure: { title: 'The track was not renamed' },
    onSuccess: onDone,
    onReload: onDone,
  });
  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!title.trim()) {
          setErrors({ title: 'Title is required.' });
          return;
        }
        setErrors({});
        save.mutate(undefined, { onError: (error) => setErrors(fieldErrorsOf(error)) });
      }}
    >
      <Field label="Title" error={errors.title}>
        {(ids) => <Input {...ids} value={title} maxLength={TRACK_TEXT_MAX} onChange={(event) => setTitle(event.target.value)} autoFocus />}
      </Field>
      <Field label="Artist" hint="Leave empty when there is none." error={errors.artist}>
        {(ids) => <Input {...ids} value={artist} maxLength={TRACK_TEXT_MAX} onChange={(event) => setArtist(event.target.value)} />}
      </Field>
      <div className="dialog-actions">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
