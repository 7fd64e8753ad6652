// Add or edit a radio station: a name and the stream's address, checked with the shared schema
// before sending (the server's reasons, such as a YouTube link, land under their fields).
import { zodFieldErrors } from '../../../src/shared/zod-fields';
import { useState } from 'react';
import { STATION_NAME_MAX, StationInput, type Station } from '../../../src/shared/music';
import { fieldErrorsOf } from '../../api/client';
import { changedOnly } from '../../api/changes';
import { useGuildMutation } from '../../api/mutations';
import { useUnsavedChanges } from '../../state/unsaved';
import { Field } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { createStation, musicKeys, patchStation } from './api';

/** Props of StationDialog: `station` null adds one. */
export interface StationDialogProps {
  guildId: string;
  open: boolean;
  station: Station | null;
  onClose: () => void;
}

/** The dialog; its form starts from the station each time it opens. */
export function StationDialog({ guildId, open, station, onClose }: StationDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? null : onClose())}>
      <DialogContent
        title={station ? 'Edit station' : 'Add station'}
        description="An internet radio stream: its address ends in .mp3, .pls or .m3u, or is the stream itself."
      >
        {open ? <StationForm key={station?.id ?? 'new'} guildId={guildId} station={station} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function StationForm({ guildId, station, onDone }: { guildId: string; station: Station | null; onDone: () => void }) {
  const [name, setName] = useState(station?.name ?? '');
  const [url, setUrl] = useState(station?.url ?? '');
  useUnsavedChanges(name !== (station?.name ?? '') || url !== (station?.url ?? ''));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useGuildMutation({
    request: () => {
      if (!station) return createStation(guildId, { name, url });
      const changes = changedOnly({ name: name.trim(), url: url.trim() }, { name: station.name, url: station.url });
      return patchStation(guildId, station.id, { ...changes, baseVersion: station.version });
    },
    invalidate: [musicKeys.stations(guildId)],
    success: { title: station ? 'Station saved' : 'Station added' },
    failure: { title: station ? 'The station was not saved' : 'The station was not added' },
    onSuccess: onDone,
    onReload: onDone,
  });
  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = StationInput.safeParse({ name, url });
        if (!checked.success) {
          setErrors(zodFieldErrors(checked.error, { labels: { name: 'Station name', url: 'Stream address' } }));
          return;
        }
        setErrors({});
        save.mutate(undefined, { onError: (error) => setErrors(fieldErrorsOf(error)) });
      }}
    >
      <Field label="Station name" error={errors.name}>
        {(ids) => <Input {...ids} value={name} maxLength={STATION_NAME_MAX} onChange={(event) => setName(event.target.value)} autoFocus />}
      </Field>
      <Field label="Stream address" hint="http:// or https://" error={errors.url}>
        {(ids) => <Input {...ids} type="url" inputMode="url" value={url} onChange={(event) => setUrl(event.target.value)} />}
      </Field>
      <div className="dialog-actions">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : station ? 'Save station' : 'Add station'}
        </Button>
      </div>
    </form>
  );
}
