// Which gateway dispatches a session's intents let through, as Discord decides: the intent each
// guild event needs, the intents a client may ask for (known bits; privileged ones only when the
// application has them), and messages without their content for a session lacking MESSAGE_CONTENT.
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayIntentBits } from 'discord-api-types/v10';
import type { WorldDispatch } from './world-state';

const I = GatewayIntentBits;
/** The intent each guild dispatch needs; events not listed always go out. */
export const EVENT_INTENTS: Partial<Record<GatewayDispatchEvents, number>> = {
  [GatewayDispatchEvents.GuildCreate]: I.Guilds,
  [GatewayDispatchEvents.GuildDelete]: I.Guilds,
  [GatewayDispatchEvents.ChannelCreate]: I.Guilds,
  [GatewayDispatchEvents.ChannelUpdate]: I.Guilds,
  [GatewayDispatchEvents.ChannelDelete]: I.Guilds,
  [GatewayDispatchEvents.ChannelPinsUpdate]: I.Guilds,
  [GatewayDispatchEvents.GuildRoleCreate]: I.Guilds,
  [GatewayDispatchEvents.GuildRoleUpdate]: I.Guilds,
  [GatewayDispatchEvents.GuildRoleDelete]: I.Guilds,
  [GatewayDispatchEvents.GuildMemberAdd]: I.GuildMembers,
  [GatewayDispatchEvents.GuildMemberRemove]: I.GuildMembers,
  [GatewayDispatchEvents.GuildMemberUpdate]: I.GuildMembers,
  [GatewayDispatchEvents.GuildBanAdd]: I.GuildModeration,
  [GatewayDispatchEvents.GuildBanRemove]: I.GuildModeration,
  [GatewayDispatchEvents.GuildAuditLogEntryCreate]: I.GuildModeration,
  [GatewayDispatchEvents.MessageCreate]: I.GuildMessages,
  [GatewayDispatchEvents.MessageUpdate]: I.GuildMessages,
  [GatewayDispatchEvents.MessageDelete]: I.GuildMessages,
  [GatewayDispatchEvents.MessageDeleteBulk]: I.GuildMessages,
  [GatewayDispatchEvents.MessageReactionAdd]: I.GuildMessageReactions,
  [GatewayDispatchEvents.MessageReactionRemove]: I.GuildMessageReactions,
  [GatewayDispatchEvents.MessageReactionRemoveAll]: I.GuildMessageReactions,
  [GatewayDispatchEvents.MessageReactionRemoveEmoji]: I.GuildMessageReactions,
  [GatewayDispatchEvents.VoiceStateUpdate]: I.GuildVoiceStates,
  [GatewayDispatchEvents.TypingStart]: I.GuildMessageTyping,
  [GatewayDispatchEvents.ThreadCreate]: I.Guilds,
  [GatewayDispatchEvents.ThreadUpdate]: I.Guilds,
  [GatewayDispatchEvents.ThreadDelete]: I.Guilds,
  [GatewayDispatchEvents.ThreadListSync]: I.Guilds,
  [GatewayDispatchEvents.ThreadMemberUpdate]: I.Guilds,
  [GatewayDispatchEvents.ThreadMembersUpdate]: I.GuildMembers,
  [GatewayDispatchEvents.InviteCreate]: I.GuildInvites,
  [GatewayDispatchEvents.InviteDelete]: I.GuildInvites,
  [GatewayDispatchEvents.WebhooksUpdate]: I.GuildWebhooks,
};

/**
 * The intent a dispatch needs (none: it always goes out). THREAD_MEMBERS_UPDATE needs GUILD_MEMBERS,
 * except one about the bot itself joining or leaving, which GUILDS brings, as Discord sends it.
 */
export function intentNeeded(dispatch: WorldDispatch, botId: string): number | undefined {
  if (dispatch.t === GatewayDispatchEvents.ThreadMembersUpdate) {
    const about = [...(dispatch.d.added_members ?? []).map((m) => m.user_id), ...(dispatch.d.removed_member_ids ?? [])];
    if (about.length > 0 && about.every((id) => id === botId)) return I.Guilds;
  }
  return EVENT_INTENTS[dispatch.t];
}

/** Every intent Discord defines; a bit outside them closes with 4013. */
const KNOWN_INTENTS = Object.values(GatewayIntentBits)
  .filter((value): value is number => typeof value === 'number')
  .reduce((all, bit) => all | bit, 0);
/** The privileged intents (need the application's switch in the developer portal). */
const PRIVILEGED_INTENTS = I.GuildMembers | I.GuildPresences | I.MessageContent;

/** Why an IDENTIFY's intents are refused (4013 unknown bits, 4014 a privileged intent the application lacks), or null. */
export function intentsRefusal(intents: number, allowedPrivileged: number): { close: number; reason: string } | null {
  if (!Number.isInteger(intents) || intents < 0 || (intents & ~KNOWN_INTENTS) !== 0)
    return { close: GatewayCloseCodes.InvalidIntents, reason: 'Invalid intent(s).' };
  if ((intents & PRIVILEGED_INTENTS & ~allowedPrivileged) !== 0) return { close: GatewayCloseCodes.DisallowedIntents, reason: 'Disallowed intent(s).' };
  return null;
}

/** Without MESSAGE_CONTENT, others' messages arrive with empty content (unless they mention the bot). */
export function withIntents(intents: number, botId: string, dispatch: WorldDispatch): WorldDispatch {
  if ((intents & I.MessageContent) !== 0) return dispatch;
  if (dispatch.t !== GatewayDispatchEvents.MessageCreate && dispatch.t !== GatewayDispatchEvents.MessageUpdate) return dispatch;
  if (dispatch.d.author.id === botId || dispatch.d.mentions.some((m) => m.id === botId)) return dispatch;
  return { ...dispatch, d: { ...dispatch.d, content: '', embeds: [], attachments: [], components: [] } } as WorldDispatch;
}
