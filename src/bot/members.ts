import { Collection, type Guild, type GuildMember } from 'discord.js';

/** Members per page of Discord's List Guild Members (its maximum). */
const PAGE = 1000;

/**
 * Every member of the guild, asked of Discord over REST, page by page (List Guild Members; the
 * Server Members intent), without filling discord.js's cache. Not over the gateway: a request
 * there sent while the connection resumes waits for a READY that a RESUME never sends
 * (@discordjs/ws queues it until the next IDENTIFY), so a catch-up right after a drop would hang.
 */
export async function listAllMembers(guild: Guild): Promise<Collection<string, GuildMember>> {
  const all = new Collection<string, GuildMember>();
  let after: string | undefined;
  for (;;) {
    const page = await guild.members.list({ limit: PAGE, cache: false, ...(after ? { after } : {}) });
    for (const [id, member] of page) all.set(id, member);
    const last = page.lastKey();
    if (page.size < PAGE || !last) return all;
    after = [...page.keys()].reduce((highest, id) => (BigInt(id) > BigInt(highest) ? id : highest), last);
  }
}
