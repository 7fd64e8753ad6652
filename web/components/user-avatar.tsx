import { useState } from 'react';
import type { CurrentUser } from '../../src/shared/auth';
import { avatarUrl } from '../../src/shared/discord-urls';
import { useMeta } from '../api/queries';
import { userInitials } from '../state/session';

/** The user's 64 px CDN avatar; when absent or failing to load, their initials (or 'U'). */
export function UserAvatar({ user }: { user: CurrentUser | null }) {
  const meta = useMeta();
  const [failed, setFailed] = useState(false);
  const url = user && meta.data && !failed ? avatarUrl(meta.data, user.discordId, user.avatar, 64) : null;
  return (
    <span className="avatar" aria-hidden="true">
      {url ? <img src={url} alt="" width={32} height={32} onError={() => setFailed(true)} /> : userInitials(user?.username)}
    </span>
  );
}
