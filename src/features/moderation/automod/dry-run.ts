// "Try these rules" (issue 24, point 5): auto moderation rules (the dashboard's unsaved draft, or
// the saved ones for /automod try) replayed against a channel's latest messages, oldest first, by
// the live engine's own `check` with a memory of its own, so repeats and rate count as they would
// have, and nothing is acted on: no delete, no case, the live engine's memory untouched. The
// moderator must be able to read the channel in Discord, and the bot too.
import { PermissionFlagsBits, RESTJSONErrorCodes, type Guild, type GuildMember, type Message } from 'discord.js';
import { askDiscord } from '../../../bot/discord-errors';
import { DiscordRefused, Forbidden, InvalidInput, NotFound } from '../../../core/errors';
import type { Services } from '../../../core/services';
import { automodActionText, excerptOf, type AutomodTryHit, type AutomodTryResult } from '../../../shared/automod-try';
import type { AutomodRules } from '../../../shared/moderation';
import { liveGuild, memberOf } from '../standing';
import { automodMessageOf, caseDue, judged, roleIdsOf } from './discord-message';
import { AutomodEngine, type AutomodMessage, type AutomodVerdict } from './engine';

/** What a try reads: the rules, whether staff are checked, the channel and how many of its latest messages. */
export interface AutomodTryRequest {
  rules: AutomodRules;
  includeStaff: boolean;
  channelId: string;
  limit: number;
}

/** Reading a channel's history, in Discord's words. */
const READ_NEEDS: [bigint, string][] = [
  [PermissionFlagsBits.ViewChannel, 'View Channel'],
  [PermissionFlagsBits.ReadMessageHistory, 'Read Message History'],
];

/** A channel with messages to read. */
type ReadableChannel = Extract<ReturnType<Guild['channels']['cache']['get']>, { messages: unknown }>;

function readableChannel(guild: Guild, channelId: string): ReadableChannel {
  const channel = guild.channels.cache.get(channelId);
  if (!channel) throw new NotFound('That channel is not in this server.');
  if (!channel.isTextBased() || !('messages' in channel)) throw InvalidInput.field('channelId', 'is not a text channel', 'That channel is not a text channel.');
  return channel;
}

/** What of View Channel and Read Message History the member lacks in the channel, in words ('' when nothing). */
function lacking(channel: ReadableChannel, member: GuildMember): string {
  const held = channel.permissionsFor(member);
  return READ_NEEDS.filter(([bit]) => !held.has(bit))
    .map(([, name]) => name)
    .join(' and ');
}

/** Refuses a moderator who cannot read the channel in Discord, then a bot that cannot. */
async function requireReaders(guild: Guild, channel: ReadableChannel, userId: string): Promise<string> {
  const member = await memberOf(guild, userId);
  if (!member) throw new Forbidden('You are not a member of this server.');
  const yours = lacking(channel, member);
  if (yours) throw new Forbidden(`You need the ${yours} permission in #${channel.name} to try the rules on its messages.`);
  const me = guild.members.me;
  if (!me) throw new DiscordRefused(0, 'The bot is not in that server.');
  const its = lacking(channel, me);
  if (its)
    throw new DiscordRefused(
      RESTJSONErrorCodes.MissingPermissions,
      `${me.displayName} needs the ${its} permission in #${channel.name} to read its messages. ` +
        `Give it to its role in Server Settings → Roles, or in the channel's permissions.`,
    );
  return me.displayName;
}

/** The roles and names of authors the cache does not hold (history comes over REST without its members); null for those who left. */
async function authorsOf(guild: Guild, messages: readonly Message<true>[]): Promise<Map<string, GuildMember | null>> {
  const missing = new Set(messages.filter((message) => !guild.members.cache.has(message.author.id)).map((message) => message.author.id));
  const found = await Promise.all([...missing].map(async (userId) => [userId, await memberOf(guild, userId)] as const));
  return new Map(found);
}

/** What a verdict would have done; past the first case of a member and rule within 10 seconds, only the delete (as live). */
function hitOf(verdict: AutomodVerdict, takesCase: boolean): AutomodTryHit {
  const what = automodActionText(verdict.action, verdict.duration);
  if (takesCase || verdict.action === 'delete') return { rule: verdict.rule, what };
  return { rule: verdict.rule, what: 'Delete the message only (the author was acted on for this rule less than 10 seconds before)' };
}

/**
 * What the rules would have done to each message, in the order given (oldest first): the live
 * engine's `check` and case pacing, with a memory of their own, so the live engine's is not read or
 * written, and a repeat or a flood counts as it would have.
 */
export function replayRules(messages: readonly AutomodMessage[], rules: AutomodRules, includeStaff: boolean): (AutomodTryHit | null)[] {
  const engine = new AutomodEngine({ maxTrackedMembers: Math.max(1, messages.length) });
  const recent = new Map<string, number>();
  return messages.map((message) => {
    const verdict = engine.check(message, rules, { includeStaff });
    return verdict ? hitOf(verdict, caseDue(recent, message.guildId, message.authorId, verdict.rule, message.at)) : null;
  });
}

/**
 * Replays the rules against the channel's latest `limit` messages, oldest first, and says for each
 * which rule would have fired and what it would have done. Bots', webhooks' and Discord's own
 * messages are read but not judged, as live.
 */
export async function tryAutomodRules(services: Services, guildId: string, request: AutomodTryRequest, actorId: string): Promise<AutomodTryResult> {
  const guild = liveGuild(services, guildId);
  const channel = readableChannel(guild, request.channelId);
  const botName = await requireReaders(guild, channel, actorId);
  const latest = await askDiscord(() => channel.messages.fetch({ limit: request.limit, cache: false }), botName);
  const oldestFirst = [...latest.values()].sort((a, b) => a.createdTimestamp - b.createdTimestamp || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const toJudge = oldestFirst.filter(judged) as Message<true>[];
  const uncached = await authorsOf(guild, toJudge);

  const members = toJudge.map((message) => message.member ?? uncached.get(message.author.id) ?? null);
  const judgedAs = toJudge.map((message, index) =>
    automodMessageOf(message, message.createdTimestamp, request.includeStaff, roleIdsOf(members[index] ?? null)),
  );
  const hits = replayRules(judgedAs, request.rules, request.includeStaff);
  const messages = toJudge.map((message, index) => {
    const hit = hits[index];
    return {
      id: message.id,
      authorName: members[index]?.displayName ?? message.author.displayName,
      createdAt: new Date(message.createdTimestamp).toISOString(),
      excerpt: excerptOf(message.content),
      hits: hit ? [hit] : [],
    };
  });
  const skipped = oldestFirst.length - toJudge.length;
  return { channelName: channel.name, messages, scanned: oldestFirst.length, ...(skipped > 0 ? { skipped } : {}) };
}
