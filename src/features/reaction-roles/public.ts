// What other features may use of reaction roles.
import type { Services } from '../../core/services';
import { reactionRoleState } from './state';

export { matches, recordReactionRoleEvent } from './service';

/** Tells the reaction listener that a message has entries written outside addReactionRole (the demo history). */
export function rememberReactionRoleMessage(services: Services, guildId: string, messageId: string): void {
  reactionRoleState.of(services).index.add(guildId, messageId);
}
