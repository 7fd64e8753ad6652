import { useState } from 'react';
import { guildIconUrl } from '../../src/shared/discord-urls';
import { useMeta } from '../api/queries';
import { cn } from './ui/cn';

/** Props of ServerIcon. */
export interface ServerIconProps {
  id: string;
  name: string;
  icon: string | null;
  size?: 'sm' | 'md' | 'lg';
}

/** The first letters of a server's words, as Discord shows icon-less servers. */
function acronym(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3)
    .map((word) => word.charAt(0))
    .join('')
    .toUpperCase();
}

/** A server's icon from the CDN, or a placeholder with its initials (also when the image fails). */
export function ServerIcon({ id, name, icon, size = 'md' }: ServerIconProps) {
  const meta = useMeta();
  const [failed, setFailed] = useState(false);
  const url = meta.data && !failed ? guildIconUrl(meta.data, id, icon, 128) : null;
  return (
    <span className={cn('server-icon', `server-icon-${size}`)} aria-hidden="true">
      {url ? <img src={url} alt="" onError={() => setFailed(true)} /> : acronym(name) || '?'}
    </span>
  );
}
