// Saved internet radio stations: add, edit, delete, and play one (members play them by name too).
import { useQuery } from '@tanstack/react-query';
import { Pencil, Play, Plus, Radio, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Station } from '../../../src/shared/music';
import { useGuildMutation } from '../../api/mutations';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { QueryList } from '../../components/query-list';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { deleteStation, musicKeys, stationsQuery } from './api';
import type { PlayTarget } from './play-target';
import { StationDialog } from './station-dialog';

/** Props of StationsCard. */
export interface StationsCardProps {
  guildId: string;
  readOnly: boolean;
  onPlay: (target: PlayTarget) => void;
}

/** The stations card. */
export function StationsCard({ guildId, readOnly, onPlay }: StationsCardProps) {
  const stations = useQuery(stationsQuery(guildId));
  const [editing, setEditing] = useState<{ station: Station | null } | null>(null);
  const [deleting, setDeleting] = useState<Station | null>(null);
  const remove = useGuildMutation({
    request: (station: Station) => deleteStation(guildId, station.id),
    invalidate: [musicKeys.stations(guildId)],
    success: { title: 'Station deleted' },
    failure: { title: 'The station was not deleted' },
    onSuccess: () => setDeleting(null),
  });
  return (
    <Card>
      <CardHeader>
        <div className="row row-between">
          <div>
            <CardTitle>Radio stations</CardTitle>
            <CardDescription>Internet radio streams saved by name.</CardDescription>
          </div>
          {readOnly ? null : (
            <Button onClick={() => setEditing({ station: null })}>
              <Plus size={16} aria-hidden="true" /> Add station
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent>
        <QueryList
          query={stations}
          what="the stations"
          rowHeight="3rem"
          empty={{ icon: Radio, title: 'No stations yet', description: 'Add an internet radio stream to play it here or with /play.' }}
        >
          {(items) => (
            <ul className="music-list" aria-label="Radio stations">
              {items.map((station) => (
                <li key={station.id} className="music-row">
                  <div className="music-row-text">
                    <p className="music-row-title truncate">{station.name}</p>
                    <p className="muted small truncate">{station.url}</p>
                  </div>
                  {readOnly ? null : (
                    <div className="music-row-actions">
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => onPlay({ stationId: station.id, name: station.name })}
                        aria-label={`Play ${station.name}`}
                      >
                        <Play size={14} aria-hidden="true" /> Play
                      </Button>
                      <Button size="icon" variant="ghost" onClick={() => setEditing({ station })} aria-label={`Edit ${station.name}`}>
                        <Pencil size={16} aria-hidden="true" />
                      </Button>
                      <Button size="icon" variant="ghost" onClick={() => setDeleting(station)} aria-label={`Delete ${station.name}`}>
                        <Trash2 size={16} aria-hidden="true" />
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </QueryList>
      </CardContent>
      <StationDialog guildId={guildId} open={editing !== null} station={editing?.station ?? null} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title="Delete station"
        description={deleting ? `Delete ${deleting.name}? Members can no longer play it by name.` : ''}
        confirmLabel="Delete"
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
      />
    </Card>
  );
}
