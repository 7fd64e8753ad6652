// A member's timeout is changed in one place at a time in this process: the renewal sweep, the
// re-application on rejoin and a case's new duration each read the case and Discord, then act; run
// side by side, the sweep could re-apply a timeout an edit had just lifted (it saw Discord's lifted
// timeout before the edit stored it). Across processes the sweep's row lease keeps them apart.
import { Events } from 'discord.js';
import { listener } from '../../core/feature';
import type { Services } from '../../core/services';
import { reapplyTimeoutOnJoin } from './long-timeouts';
import { moderationState } from './state';

/** Runs `task` after every other timeout change of this member in this process. */
export const changingTimeout = <T>(services: Services, guildId: string, userId: string, task: () => Promise<T>): Promise<T> =>
  moderationState.of(services).timeoutChanges.run(`${guildId}:${userId}`, task);

/** GUILD_MEMBER_ADD → a running timeout of the member applied again. */
export const reapplyTimeoutsOnJoin = listener(Events.GuildMemberAdd, 'ReapplyTimeoutOnJoin', (services, member) =>
  changingTimeout(services, member.guild.id, member.id, () => reapplyTimeoutOnJoin(services, member)),
);
