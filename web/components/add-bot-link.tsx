// The one invite action of the dashboard: 'Add Bot', in the primary style, opening Discord's
// authorize page in a new tab; the same words and look on every screen that offers it.
import { Plus } from 'lucide-react';
import { inviteUrl } from '../../src/shared/discord-urls';
import type { PublicMeta } from '../../src/shared/meta';
import { buttonClass, type ButtonSize } from './ui/button';

/** Props of AddBotLink. */
export interface AddBotLinkProps {
  /** Needed for the invite URL; nothing renders until it loads. */
  meta: PublicMeta | undefined;
  /** The server to add the bot to; without it Discord asks which server. */
  server?: { id: string; name: string };
  size?: Exclude<ButtonSize, 'icon'>;
  className?: string;
}

/** The invite link: visible text 'Add Bot'; the accessible name adds the server and the new tab. */
export function AddBotLink({ meta, server, size = 'md', className }: AddBotLinkProps) {
  if (!meta) return null;
  const name = server ? `Add Bot to ${server.name}` : 'Add Bot';
  return (
    <a
      className={buttonClass('primary', size, className)}
      href={inviteUrl(meta, server?.id)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`${name} (opens in a new tab)`}
    >
      <Plus size={size === 'sm' ? 14 : 16} aria-hidden="true" /> Add Bot
    </a>
  );
}
