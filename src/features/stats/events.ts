import { Events, type Client } from 'discord.js';
import type { ActivityRecorder } from './recorder';

/** Counts members' messages, joins and leaves for the dashboard's stats and activity chart. */
export function attachActivityListeners(client: Client, recorder: ActivityRecorder): void {
  client.on(Events.MessageCreate, (message) => {
    if (!message.inGuild() || message.author.bot || message.webhookId) return;
    recorder.message(message.guildId, message.author.id, message.createdAt);
  });
  client.on(Events.GuildMemberAdd, (member) => {
    if (!member.user.bot) recorder.join(member.guild.id, member.joinedAt ?? new Date());
  });
  client.on(Events.GuildMemberRemove, (member) => {
    if (!member.user.bot) recorder.leave(member.guild.id);
  });
}
