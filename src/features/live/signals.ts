// Where the live bus hears of changes: committed writes to the tables the dashboard shows (every way
// in at once: pages, slash commands, the bot's own work), the gateway events that change who may
// manage a server or its member count, and sessions that end.
import { Events } from 'discord.js';
import { listener } from '../../core/feature';
import type { Services } from '../../core/services';
import { onGuildCommit } from '../../db/write-hooks';
import type { LiveTopic } from '../../shared/live';

/** The tables whose committed writes change what a topic's pages show. */
export const TOPIC_OF_TABLE: Readonly<Record<string, LiveTopic>> = {
  moderation_logs: 'moderation-log',
  moderation_reports: 'reports',
  reaction_roles: 'reaction-roles',
  reaction_role_events: 'reaction-roles',
  announcements: 'announcements',
  music_tracks: 'music',
  music_stations: 'music',
  guild_settings: 'settings',
};

/** The table of dashboard grants: a write to it may change anyone's access to the guild. */
const GRANTS_TABLE = 'dashboard_grants';

/** Starts hearing the store: returns what stops it. */
export function hearStore(services: Services): () => void {
  const { live } = services;
  const stopCommits = onGuildCommit(services.store.sequelize, (guildId, table) => {
    const topic = TOPIC_OF_TABLE[table];
    if (topic) live.publish(guildId, topic);
    else if (table === GRANTS_TABLE) live.accessChanged(guildId, null);
  });
  // Sessions are no guild's rows: any that end (sign-out here or everywhere, the sweeper) make each stream check its own.
  const { Session } = services.store.models;
  const name = `live-sessions-${Math.random().toString(36).slice(2)}`;
  const ended = () => live.sessionsEnded();
  Session.addHook('afterDestroy', name, ended);
  Session.addHook('afterBulkDestroy', name, ended);
  Session.addHook('afterBulkUpdate', name, ended);
  return () => {
    stopCommits();
    Session.removeHook('afterDestroy', name);
    Session.removeHook('afterBulkDestroy', name);
    Session.removeHook('afterBulkUpdate', name);
  };
}

/** A member's roles changed (or they were timed out, renamed): their access may have. */
export const recheckMemberAccess = listener(Events.GuildMemberUpdate, 'RecheckMemberLiveAccess', ({ live }, _before, member) =>
  live.accessChanged(member.guild.id, member.id),
);

/** A member left or was removed: their streams end; the member count changed. */
export const memberLeftLive = listener(Events.GuildMemberRemove, 'MemberLeftLive', ({ live }, member) => {
  live.accessChanged(member.guild.id, member.id);
  live.publish(member.guild.id, 'overview');
});

/** A member joined: the member count changed. */
export const memberJoinedLive = listener(Events.GuildMemberAdd, 'MemberJoinedLive', ({ live }, member) => live.publish(member.guild.id, 'overview'));

/** A role's permissions changed or the role is gone: anyone holding it may have lost access. */
export const recheckRoleAccess = [
  listener(Events.GuildRoleUpdate, 'RecheckRoleLiveAccess', ({ live }, _before, role) => live.accessChanged(role.guild.id, null)),
  listener(Events.GuildRoleDelete, 'RecheckDeletedRoleLiveAccess', ({ live }, role) => live.accessChanged(role.guild.id, null)),
];

/** The guild changed hands or name, or the bot left it. */
export const recheckGuildAccess = [
  listener(Events.GuildUpdate, 'RecheckGuildLiveAccess', ({ live }, _before, guild) => {
    live.accessChanged(guild.id, null);
    live.publish(guild.id, 'overview');
  }),
  listener(Events.GuildDelete, 'EndLiveOfLeftGuild', ({ live }, guild) => live.accessChanged(guild.id, null)),
];
