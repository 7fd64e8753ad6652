// Music (/server/{serverId}/music, issue 23): what plays now with its controls, the queue, the
// library with uploads and its quota, the saved radio stations, and the music settings.
import { useQuery } from '@tanstack/react-query';
import { Music } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '../../api/client';
import { SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { buttonClass } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { serverPath } from '../../state/server';
import { musicSettingsQuery, playerQuery } from './api';
import { LibraryCard } from './library-card';
import { usePlay } from './play-target';
import { PlayerPanel } from './player-panel';
import { QueueList } from './queue-list';
import { MusicSettingsCard } from './settings-card';
import { StationsCard } from './stations-card';

/** Now playing and Up next, from the polled player. */
function PlayerCards({ guildId, readOnly }: { guildId: string; readOnly: boolean }) {
  const player = useQuery(playerQuery(guildId));
  const body = (render: (view: NonNullable<typeof player.data>) => ReactNode, skeleton: string) =>
    player.data ? (
      render(player.data)
    ) : player.isError ? (
      <p className="error-text small">Could not load the player: {errorMessage(player.error)}</p>
    ) : (
      <Skeleton height={skeleton} />
    );
  return (
    <div className="grid grid-2 align-start">
      <Card>
        <CardHeader>
          <CardTitle>Now playing</CardTitle>
        </CardHeader>
        <CardContent>
          {body(
            (view) => (
              <PlayerPanel guildId={guildId} view={view} receivedAt={player.dataUpdatedAt} readOnly={readOnly} />
            ),
            '9rem',
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Up next</CardTitle>
          <CardDescription>
            {player.data && player.data.queue.length > 0
              ? `${player.data.queue.length} ${player.data.queue.length === 1 ? 'track' : 'tracks'} waiting.`
              : 'The tracks after the current one.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {body(
            (view) => (
              <QueueList guildId={guildId} view={view} readOnly={readOnly} />
            ),
            '6rem',
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** The music settings, once loaded. */
function SettingsSection({ guildId, readOnly }: { guildId: string; readOnly: boolean }) {
  const settings = useQuery(musicSettingsQuery(guildId));
  if (settings.data) return <MusicSettingsCard guildId={guildId} view={settings.data} readOnly={readOnly} />;
  if (settings.isError) return <p className="error-text small">Could not load the music settings: {errorMessage(settings.error)}</p>;
  return <Skeleton height="16rem" />;
}

/** The page's body once the guild's settings (and so the person's access) have loaded. */
function MusicBody({ guildId, view, readOnly }: SettingsBodyProps) {
  const player = useQuery(playerQuery(guildId));
  const { play, dialog } = usePlay(guildId);
  const enabled = player.data?.enabled ?? view.musicEnabled;
  return (
    <div className="stack">
      {enabled ? null : (
        <div className="notice notice-warning row row-between" role="status">
          <span>
            <Music size={16} aria-hidden="true" /> Music commands are off: members cannot use /play. Turn them on in Bot Settings.
          </span>
          <Link to={serverPath(guildId, 'settings')} className={buttonClass('outline', 'sm')}>
            Open Bot Settings
          </Link>
        </div>
      )}
      <PlayerCards guildId={guildId} readOnly={readOnly} />
      <LibraryCard guildId={guildId} readOnly={readOnly} onPlay={play} />
      <StationsCard guildId={guildId} readOnly={readOnly} onPlay={play} />
      <SettingsSection guildId={guildId} readOnly={readOnly} />
      {dialog}
    </div>
  );
}

/** The Music page. */
export default function MusicPage() {
  return (
    <SettingsShell title="Music" description="Play music in voice channels: the player, the queue, your library of uploaded audio and radio stations.">
      {(props) => <MusicBody {...props} />}
    </SettingsShell>
  );
}
