import { Events, type GuildMember, type PartialGuildMember } from 'discord.js';
import { listener, type Feature } from '../../core/feature';
import { guildRoute } from '../../http/route';
import type { WebhookDeliveryView } from '../../shared/notifications';
import type { Notification } from '../../core/notifier';
import { settingProblem } from '../../core/checks';

/** A join or a leave as a notification: who, and how many members the server has now. */
function memberNotice(member: GuildMember | PartialGuildMember, joined: boolean): Notification {
  const username = member.user?.username ?? member.id;
  return {
    event: joined ? 'memberJoin' : 'memberLeave',
    title: joined ? 'Member joined' : 'Member left',
    description: `${username} ${joined ? 'joined' : 'left'}. The server now has ${member.guild.memberCount} members.`,
    ...(joined && member.user
      ? { fields: [{ name: 'Account created', value: `<t:${Math.floor(member.user.createdTimestamp / 1000)}:R>`, inline: true }] }
      : {}),
    data: { userId: member.id, username, memberCount: member.guild.memberCount },
  };
}

/** Posts "member joined" to the log channel (Bot Settings → Notifications → Join/Leave). */
const notifyMemberJoin = listener(Events.GuildMemberAdd, 'NotifyMemberJoin', async ({ notifier }, member) => {
  if (!member.user.bot) await notifier.notify(member.guild.id, memberNotice(member, true));
});

/** Posts "member left" to the log channel. */
const notifyMemberLeave = listener(Events.GuildMemberRemove, 'NotifyMemberLeave', async ({ notifier }, member) => {
  if (!member.user?.bot) await notifier.notify(member.guild.id, memberNotice(member, false));
});

/** Log-channel notifications, signed webhook deliveries and their log, and error notifications when Discord refuses the bot. */
export const notificationsFeature: Feature = {
  name: 'notifications',
  listeners: [notifyMemberJoin, notifyMemberLeave],
  diagnose(services, guildId, settings) {
    const wanted = settings.notifyJoinLeave || settings.notifyLevelUp || settings.notifyModeration || settings.notifyErrors;
    const problem = wanted ? settingProblem(services, guildId, settings, 'logChannelId') : null;
    return problem
      ? [{ feature: 'notifications', severity: 'error', problem: `Log channel: ${problem.problem}`, fix: problem.fix, subject: 'logChannelId' }]
      : [];
  },
  routes: [
    guildRoute({
      method: 'get',
      path: '/webhook-deliveries',
      example: {},
      handler: async ({ guild, services }): Promise<WebhookDeliveryView[]> => {
        const rows = await services.store.guild(guild.id).WebhookDelivery.findAll({ order: [['id', 'DESC']], limit: 20 });
        return rows.map((row) => ({
          id: row.id,
          event: row.event,
          target: row.target,
          status: row.status,
          attempts: row.attempts,
          responseStatus: row.responseStatus,
          error: row.error,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        }));
      },
    }),
  ],
  start(services) {
    // A post Discord refused (a missing permission) is worth telling the moderators about.
    services.messenger.onRefusal((guildId, channelId, refusal) => {
      void services.notifier.notify(guildId, {
        event: 'error',
        title: 'The bot could not post',
        description: refusal.message,
        data: { channelId, discordCode: refusal.code },
      });
    });
  },
  stop: ({ notifier }) => notifier.settle(),
};
