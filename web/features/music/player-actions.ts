// Running a player control: the server answers the player as it is now, which replaces the cached
// one at once (no wait for the next poll); a refusal shows as a toast with the server's sentence.
import type { PlayerView } from '../../../src/shared/music-player';
import { queryClient } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { musicKeys } from './api';

/** One control to run: the call and, when it succeeds, what to do next (move focus, close a dialog). */
export interface PlayerAction {
  call: () => Promise<PlayerView>;
  after?: (view: PlayerView) => void;
}

/** The page's one mutation for the player's controls. */
export function usePlayerAction(guildId: string) {
  return useGuildMutation({
    request: (action: PlayerAction) => action.call(),
    failure: { title: 'The player did not change' },
    onSuccess: (view, action) => {
      queryClient.setQueryData(musicKeys.player(guildId), view);
      action.after?.(view);
    },
  });
}
