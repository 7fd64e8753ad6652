import type { ReactNode } from 'react';
import { inviteUrl } from '../../src/shared/discord-urls';
import type { PublicMeta } from '../../src/shared/meta';
import { buttonClass } from './ui/button';

/** The small "add the bot to this server" button of a server row: the invite for that guild, in a new tab. */
export function AddBotLink({ meta, serverId, serverName, children }: { meta: PublicMeta | undefined; serverId: string; serverName: string; children: ReactNode }) {
  if (!meta) return null;
  return (
    <a
      className={buttonClass('success', 'sm')}
      href={inviteUrl(meta, serverId)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Add the bot to ${serverName} (new tab)`}
    >
      {children}
    </a>
  );
}
