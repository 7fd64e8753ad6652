import { featureState } from '../../core/feature';
import type { Services } from '../../core/services';
import { acrossGuilds } from '../../db/cross-guild';
import { KeyedQueue } from '../../core/keyed-queue';

/**
 * Which messages of which guild have active reaction roles, in memory: the reaction listener skips
 * every other reaction without asking the store.
 */
export class ReactionRoleIndex {
  private readonly messages = new Set<string>();

  /** The message has (or may have) entries. */
  add(guildId: string, messageId: string): void {
    this.messages.add(`${guildId}:${messageId}`);
  }

  /** Whether the message may have entries. */
  has(guildId: string, messageId: string): boolean {
    return this.messages.has(`${guildId}:${messageId}`);
  }

  /** Loads every message with active entries. */
  async load(services: Pick<Services, 'store'>): Promise<void> {
    const rows = await acrossGuilds(services.store, 'reaction-role index').ReactionRole.findAll({
      where: { isActive: true },
      attributes: ['guildId', 'messageId'],
    });
    for (const row of rows) this.add(row.guildId, row.messageId);
  }
}

/**
 * Reaction roles' state: which messages have entries; the role changes, one at a time per member
 * and role (a live reaction and the catch-up after a gateway drop may handle the same reaction at
 * once); and the changes Discord took a moment ago, which the cached member shows only once its
 * update comes by the gateway.
 */
export const reactionRoleState = featureState('reaction-roles', () => ({
  index: new ReactionRoleIndex(),
  changes: new KeyedQueue(),
  /** `guild:member:role` -> the change Discord took and when (the product's clock); bounded (core/bounded-map). */
  recent: new Map<string, { action: 'add' | 'remove'; at: number }>(),
}));
