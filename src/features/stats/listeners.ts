import { Events } from 'discord.js';
import { listener } from '../../core/feature';

/** Counts members' messages and who posted when, for the dashboard's stats and activity chart. */
export const countMessageActivity = listener(Events.MessageCreate, 'CountMessageActivity', ({ activity }, message) => {
  if (!message.inGuild() || message.author.bot || message.webhookId) return;
  activity.message(message.guildId, message.author.id, message.createdTimestamp);
});

/** Counts joins per day. */
export const countJoin = listener(Events.GuildMemberAdd, 'CountJoin', ({ activity }, member) => {
  if (!member.user.bot) activity.join(member.guild.id, member.joinedAt ?? new Date());
});

/** Counts leaves per day. */
export const countLeave = listener(Events.GuildMemberRemove, 'CountLeave', ({ activity }, member) => {
  if (!member.user.bot) activity.leave(member.guild.id);
});
