import type { MessageReaction, User } from 'discord.js';

/** Everyone who reacted with a reaction, page by page (Discord lists 100 at a time). */
export async function* reactorsOf(reaction: MessageReaction): AsyncGenerator<User> {
  let after: string | undefined;
  for (;;) {
    const page = await reaction.users.fetch({ limit: 100, ...(after ? { after } : {}) });
    yield* page.values();
    if (page.size < 100) return;
    after = page.lastKey();
  }
}
