import { PermissionFlagsBits } from 'discord-api-types/v10';
import { invalidFormBody } from './errors';
import { channelPermissions, hasPermission } from './permissions';
import type { ChannelRecord, GuildRecord, MessageRecord } from './types';

/** A message's allowed_mentions, as Discord takes it. */
export interface AllowedMentions {
  parse?: ('users' | 'roles' | 'everyone')[] | null;
  users?: string[] | null;
  roles?: string[] | null;
  replied_user?: boolean | null;
}

/** Who a message actually pinged. */
export interface Pings {
  userIds: string[];
  roleIds: string[];
  everyone: boolean;
}

const USER_MENTION = /<@!?(\d{17,20})>/g;
const ROLE_MENTION = /<@&(\d{17,20})>/g;
const EVERYONE_MENTION = /@(everyone|here)\b/;

/** An allowed_mentions that names `users` (or `roles`) both in parse and as a list: Discord refuses it. */
function checkExclusive(allowed: AllowedMentions): void {
  const parse = allowed.parse ?? [];
  for (const kind of ['users', 'roles'] as const) {
    if (parse.includes(kind) && (allowed[kind]?.length ?? 0) > 0) {
      throw invalidFormBody({
        [`allowed_mentions.${kind}`]: {
          code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
          message: `parse:["${kind}"] and ${kind}: [ids] are mutually exclusive.`,
        },
      });
    }
  }
}

/**
 * Who a message pings, as Discord decides it: mentions in the content, filtered by
 * allowed_mentions (absent: everything may ping, as a member's client sends). A role pings only
 * if it is mentionable or the author may Mention Everyone; @everyone and @here ping only with
 * that permission. A reply pings the replied-to author unless replied_user says otherwise
 * (an allowed_mentions without it means no).
 */
export function resolvePings(
  guild: GuildRecord,
  channel: ChannelRecord,
  authorId: string,
  content: string,
  allowed: AllowedMentions | undefined | null,
  repliedTo: MessageRecord | null,
  knownUser: (id: string) => boolean,
): Pings {
  if (allowed) checkExclusive(allowed);
  const parse = allowed ? (allowed.parse ?? []) : ['users', 'roles', 'everyone'];
  // A webhook (an author who is no member) is not held to Mention Everyone: on Discord its allowed_mentions alone restrain it.
  const mayMentionEveryone = !guild.members.has(authorId) || hasPermission(channelPermissions(guild, channel, authorId), PermissionFlagsBits.MentionEveryone);
  const mentionedUsers = [...new Set([...content.matchAll(USER_MENTION)].flatMap((m) => (m[1] && knownUser(m[1]) ? [m[1]] : [])))];
  const mentionedRoles = [...new Set([...content.matchAll(ROLE_MENTION)].flatMap((m) => (m[1] && guild.roles.has(m[1]) ? [m[1]] : [])))];
  const userIds = parse.includes('users') ? mentionedUsers : mentionedUsers.filter((id) => allowed?.users?.includes(id));
  const roleIds = (parse.includes('roles') ? mentionedRoles : mentionedRoles.filter((id) => allowed?.roles?.includes(id))).filter(
    (id) => guild.roles.get(id)?.mentionable || mayMentionEveryone,
  );
  const everyone = parse.includes('everyone') && EVERYONE_MENTION.test(content) && mayMentionEveryone;
  const pingReplied = repliedTo && (allowed ? allowed.replied_user === true : true);
  if (pingReplied && repliedTo.authorId !== authorId && !userIds.includes(repliedTo.authorId)) userIds.push(repliedTo.authorId);
  return { userIds, roleIds, everyone };
}
