import { PermissionFlagsBits } from 'discord.js';
import { Op } from 'sequelize';
import { Conflict, DiscordRefused, InvalidInput, NotFound } from '../../core/errors';
import type { Services } from '../../core/services';
import type { GuildSummary } from '../../bot/gateway';
import type { Announcement } from '../../db/models/community';
import { saveVersioned, type EditActor } from '../../db/versioned';
import { guildValueWords } from '../../core/value-words';
import {
  announcementEmbed,
  ANNOUNCEMENT_PRIORITIES,
  LATE_SEND_WINDOW_MS,
  type AnnouncementPage,
  type AnnouncementPriority,
  type AnnouncementView,
} from '../../shared/announcements';
import { botNameIn, channelProblem, problemText } from '../../core/checks';
import { messageUrl } from '../../shared/discord-urls';
import { acrossGuilds } from '../../db/cross-guild';
import type { Recurrence } from '../../shared/recurrence';
import { firstOccurrence, LATE_AFTER_MS, passNote, planRecurringSend, recurrenceColumns, ruleOf } from './recurring';

/** Who made an announcement. */
export interface AnnouncementActor {
  userId: string;
  name: string;
}

/** The fields of an announcement as the routes parse them. */
export interface AnnouncementFields {
  title: string;
  message: string;
  channelId: string;
  priority: AnnouncementPriority;
  mentionRoleId: string | null;
}

/** How long a process holds a scheduled announcement it claimed (then another may retry it). */
export const CLAIM_MS = 60_000;
/** A scheduled time this far ahead at most. */
const MAX_AHEAD_MS = 366 * 86_400_000;
/** Unexpected failures (not Discord refusing) are retried this many times. */
const MAX_ATTEMPTS = 3;

/** Why a scheduled announcement cannot be changed while the scheduler sends it. */
const SENDING_NOW = 'That announcement is being sent right now.';

/** What became of an announcement that is no longer scheduled, to finish "That announcement … and can no longer be changed." */
const SETTLED = { sent: 'was sent already', failed: 'could not be sent', cancelled: 'was cancelled', missed: 'missed its time' } as const;

const scope = (services: Services, guildId: string) => services.store.guild(guildId).Announcement;

/** An announcement as Recent Announcements lists it. */
export function viewAnnouncement(services: Services, row: Announcement): AnnouncementView {
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    channelId: row.channelId,
    channelName: services.gateway.channel(row.guildId, row.channelId)?.name ?? null,
    priority: (ANNOUNCEMENT_PRIORITIES as readonly string[]).includes(row.priority) ? (row.priority as AnnouncementPriority) : 'normal',
    status: row.status,
    scheduleTime: row.scheduleTime?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
    late: row.late,
    error: row.error,
    messageUrl: row.messageId ? messageUrl(services.meta, row.guildId, row.channelId, row.messageId) : null,
    mentionRoleId: row.mentionRoleId,
    createdBy: { id: row.createdById, name: row.createdByName },
    createdAt: row.createdAt.toISOString(),
    version: row.version,
    recurrence: ruleOf(row),
    sendCount: row.sendCount,
    canEditMessage: row.messageId !== null,
    editedAt: row.editedAt?.toISOString() ?? null,
  };
}

/** The channel must take the embed, and the role to ping must be pingable by the bot; each problem names its field. */
function checkTarget(services: Services, guildId: string, fields: Pick<AnnouncementFields, 'channelId' | 'mentionRoleId'>): void {
  const problems: Record<string, string> = {};
  const channel = channelProblem(services, guildId, fields.channelId, ['send', 'embed']);
  if (channel) problems.channelId = problemText(channel);
  if (fields.mentionRoleId) {
    const role = services.gateway.role(guildId, fields.mentionRoleId);
    const bot = services.gateway.botMember(guildId);
    const botName = botNameIn(services, guildId);
    if (!role) problems.mentionRoleId = 'is not a role of this server';
    else if (role.isEveryone) problems.mentionRoleId = 'cannot be @everyone; pick the role to ping';
    else if (!role.mentionable && !(bot && (bot.permissions & PermissionFlagsBits.MentionEveryone) !== 0n)) {
      problems.mentionRoleId =
        `@${role.name} cannot be pinged by ${botName}. Make it mentionable in Server Settings → Roles, or give ${botName} ` +
        `"Mention @everyone, @here and All Roles".`;
    }
  }
  if (Object.keys(problems).length > 0) throw new InvalidInput(problems);
}

/** A schedule must be ahead, and within a year. */
function checkSchedule(services: Services, scheduleTime: string): Date {
  const at = new Date(scheduleTime);
  const now = services.clock.ms();
  if (at.getTime() <= now) throw InvalidInput.field('scheduleTime', 'must be in the future; leave it empty to send now');
  if (at.getTime() - now > MAX_AHEAD_MS) throw InvalidInput.field('scheduleTime', 'must be within a year');
  return at;
}

/** Posts the announcement's embed (pinging only its role) and returns the message id; Discord's refusal is thrown in words. */
export async function post(services: Services, guildId: string, fields: AnnouncementFields): Promise<string> {
  const posted = await services.messenger.post(guildId, fields.channelId, {
    ...(fields.mentionRoleId ? { content: `<@&${fields.mentionRoleId}>` } : {}),
    embeds: [announcementEmbed(fields)],
    mentionRoleIds: fields.mentionRoleId ? [fields.mentionRoleId] : [],
  });
  return posted.id;
}

/**
 * Send Now (no scheduleTime): the bot posts the embed at once; the attempt is recorded either way,
 * and Discord's refusal is thrown in words. Schedule: stored, sent by the scheduler at that time.
 */
export async function createAnnouncement(
  services: Services,
  guild: GuildSummary,
  input: AnnouncementFields & { scheduleTime: string | null; recurrence?: Recurrence | null },
  actor: AnnouncementActor,
): Promise<AnnouncementView> {
  checkTarget(services, guild.id, input);
  const now = services.clock.now();
  const base = {
    title: input.title,
    message: input.message,
    channelId: input.channelId,
    priority: input.priority,
    mentionRoleId: input.mentionRoleId,
    createdById: actor.userId,
    createdByName: actor.name,
    sentAt: null,
    messageId: null,
    error: null,
    claimedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  if (input.recurrence) {
    if (input.scheduleTime) throw InvalidInput.field('scheduleTime', 'must be empty for a repeating announcement: it starts at its next time');
    const at = firstOccurrence(input.recurrence, services.clock.ms());
    const columns = recurrenceColumns(input.recurrence);
    return viewAnnouncement(services, await scope(services, guild.id).create({ ...base, ...columns, scheduleTime: at, status: 'scheduled' }));
  }
  if (input.scheduleTime) {
    const at = checkSchedule(services, input.scheduleTime);
    return viewAnnouncement(services, await scope(services, guild.id).create({ ...base, scheduleTime: at, status: 'scheduled' }));
  }
  try {
    const messageId = await post(services, guild.id, input);
    return viewAnnouncement(
      services,
      await scope(services, guild.id).create({ ...base, scheduleTime: null, status: 'sent', sentAt: services.clock.now(), messageId }),
    );
  } catch (error) {
    const reason = error instanceof DiscordRefused ? error.message : 'An unexpected error; see the logs.';
    await scope(services, guild.id).create({ ...base, scheduleTime: null, status: 'failed', error: reason });
    throw error;
  }
}

/** A scheduled announcement no process is sending, or a Conflict saying what became of it. */
async function editable(services: Services, guildId: string, id: number): Promise<Announcement> {
  const row = await scope(services, guildId).findOne({ where: { id } });
  if (!row) throw new NotFound('That announcement does not exist in this server.');
  const claimed = row.claimedUntil && row.claimedUntil.getTime() > services.clock.ms();
  if (row.status !== 'scheduled' || claimed)
    throw new Conflict(
      row.status === 'scheduled'
        ? SENDING_NOW
        : `That announcement ${row.status in SETTLED ? SETTLED[row.status as keyof typeof SETTLED] : 'is no longer scheduled'} and can no longer be changed.`,
    );
  return row;
}

/** Changes a scheduled announcement before it is sent. */
export async function updateAnnouncement(
  services: Services,
  guild: GuildSummary,
  id: number,
  patch: Partial<AnnouncementFields> & { scheduleTime?: string | undefined; recurrence?: Recurrence | undefined },
  edit: { actor: EditActor; baseVersion?: number | undefined },
): Promise<AnnouncementView> {
  const row = await editable(services, guild.id, id);
  const next = {
    title: patch.title ?? row.title,
    message: patch.message ?? row.message,
    channelId: patch.channelId ?? row.channelId,
    priority: patch.priority ?? (row.priority as AnnouncementPriority),
    mentionRoleId: patch.mentionRoleId === undefined ? row.mentionRoleId : patch.mentionRoleId,
  };
  checkTarget(services, guild.id, next);
  // Only what the person changed is saved over the version they loaded (db/versioned).
  const values: Record<string, unknown> = Object.fromEntries(Object.entries(next).filter(([field]) => (patch as Record<string, unknown>)[field] !== undefined));
  if (patch.scheduleTime) values.scheduleTime = checkSchedule(services, patch.scheduleTime);
  if (patch.recurrence) {
    if (patch.scheduleTime) throw InvalidInput.field('scheduleTime', 'must be empty for a repeating announcement: it starts at its next time');
    Object.assign(values, recurrenceColumns(patch.recurrence), { scheduleTime: firstOccurrence(patch.recurrence, services.clock.ms(), row.sendCount) });
  }
  const saved = await saveVersioned(services.store, {
    entity: 'announcement',
    row,
    values,
    baseVersion: edit.baseVersion,
    actor: edit.actor,
    now: () => services.clock.now(),
    describe: guildValueWords(services, guild.id),
    guard: {
      where: { status: 'scheduled', [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: services.clock.now() } }] },
      refusal: () => new Conflict(SENDING_NOW),
    },
    alongside: { updatedAt: services.clock.now() },
  });
  return viewAnnouncement(services, saved);
}

/** Cancels a scheduled announcement before it is sent. */
export async function cancelAnnouncement(services: Services, guild: GuildSummary, id: number): Promise<AnnouncementView> {
  const row = await editable(services, guild.id, id);
  const changed = await scope(services, guild.id).update(
    { status: 'cancelled', updatedAt: services.clock.now() },
    { where: { id, status: 'scheduled', [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: services.clock.now() } }] } },
  );
  if (changed === 0) throw new Conflict(SENDING_NOW);
  await row.reload();
  return viewAnnouncement(services, row);
}

/** Recent Announcements: newest first, paged. */
export async function listAnnouncements(services: Services, guildId: string, page: number, pageSize: number): Promise<AnnouncementPage> {
  const [rows, total] = await Promise.all([
    scope(services, guildId).findAll({ order: [['id', 'DESC']], limit: pageSize, offset: (page - 1) * pageSize }),
    scope(services, guildId).count(),
  ]);
  return { entries: rows.map((row) => viewAnnouncement(services, row)), page, pageSize, total };
}

/**
 * Claims a due announcement for this process: one conditional update, so of two processes on one
 * database exactly one wins (the lease runs out if it dies, and another retries).
 */
async function claim(services: Services, row: Announcement): Promise<boolean> {
  const now = services.clock.now();
  const count = await services.store.guild(row.guildId).Announcement.update(
    { claimedUntil: new Date(now.getTime() + CLAIM_MS), attempts: row.attempts + 1, updatedAt: now },
    {
      where: {
        id: row.id,
        status: 'scheduled',
        attempts: row.attempts,
        scheduleTime: row.scheduleTime,
        [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: now } }],
      },
    },
  );
  return count === 1;
}

/**
 * Sends what is due: each scheduled announcement whose time has come is claimed and posted; one
 * missed by under an hour (the bot was down) is sent late and marked so, an older one is marked
 * missed. Discord refusing fails it with the reason; an unexpected error leaves it to a retry.
 * Returns how many it settled.
 */
export async function sendDueAnnouncements(services: Services): Promise<number> {
  const now = services.clock.ms();
  const due = await acrossGuilds(services.store, 'due announcements').Announcement.findAll({
    where: { status: 'scheduled', scheduleTime: { [Op.lte]: new Date(now) }, [Op.or]: [{ claimedUntil: null }, { claimedUntil: { [Op.lt]: new Date(now) } }] },
    order: [['scheduleTime', 'ASC']],
    limit: 20,
  });
  let settled = 0;
  for (const row of due) {
    if (!services.gateway.guild(row.guildId) || !(await claim(services, row))) continue;
    const lateBy = now - (row.scheduleTime?.getTime() ?? now);
    const finish = (values: Partial<Announcement>) =>
      services.store.guild(row.guildId).Announcement.update({ ...values, claimedUntil: null, updatedAt: services.clock.now() }, { where: { id: row.id } });
    const rule = ruleOf(row);
    if (rule) {
      if (await sendRecurring(services, row, rule, now, finish)) settled += 1;
      continue;
    }
    if (lateBy > LATE_SEND_WINDOW_MS) {
      await finish({ status: 'missed', error: `The bot was offline at the scheduled time (${Math.round(lateBy / 60_000)} minutes ago).` });
      settled += 1;
      continue;
    }
    try {
      const messageId = await post(services, row.guildId, {
        title: row.title,
        message: row.message,
        channelId: row.channelId,
        priority: row.priority as AnnouncementPriority,
        mentionRoleId: row.mentionRoleId,
      });
      await finish({ status: 'sent', messageId, sentAt: services.clock.now(), late: lateBy > LATE_AFTER_MS });
      settled += 1;
    } catch (error) {
      if (error instanceof DiscordRefused || row.attempts + 1 >= MAX_ATTEMPTS) {
        await finish({ status: 'failed', error: error instanceof DiscordRefused ? error.message : 'An unexpected error; see the logs.' });
        settled += 1;
      } else {
        services.logger.error({ err: error, announcementId: row.id }, 'sending a scheduled announcement failed; it will be retried');
        await services.store.guild(row.guildId).Announcement.update({ claimedUntil: null }, { where: { id: row.id } });
      }
    }
  }
  return settled;
}

/**
 * A due recurring row's pass (see ./recurring): sends the latest due occurrence once if recent,
 * then moves the row to its next occurrence, or ends it. Discord refusing skips this occurrence
 * with the reason; an unexpected error leaves the row to a retry (up to MAX_ATTEMPTS). Returns
 * whether the pass settled it (false: left for a retry).
 */
async function sendRecurring(
  services: Services,
  row: Announcement,
  rule: Recurrence,
  now: number,
  finish: (values: Partial<Announcement>) => Promise<unknown>,
): Promise<boolean> {
  const plan = planRecurringSend(rule, row.scheduleTime?.getTime() ?? now, now, row.sendCount);
  let messageId: string | null = null;
  let refusal: string | null = null;
  if (plan.send) {
    try {
      const fields = { title: row.title, message: row.message, channelId: row.channelId, mentionRoleId: row.mentionRoleId };
      messageId = await post(services, row.guildId, { ...fields, priority: row.priority as AnnouncementPriority });
    } catch (error) {
      if (!(error instanceof DiscordRefused) && row.attempts + 1 < MAX_ATTEMPTS) {
        services.logger.error({ err: error, announcementId: row.id }, 'sending a recurring announcement failed; it will be retried');
        await services.store.guild(row.guildId).Announcement.update({ claimedUntil: null }, { where: { id: row.id } });
        return false;
      }
      refusal = error instanceof DiscordRefused ? error.message : 'An unexpected error; see the logs.';
    }
  }
  const sendCount = row.sendCount + (messageId ? 1 : 0);
  const sent = messageId ? { messageId, sentAt: services.clock.now(), late: plan.late, editedAt: null } : {};
  await finish({
    ...sent,
    sendCount,
    attempts: 0,
    error: passNote(plan, refusal),
    ...(plan.next ? { scheduleTime: plan.next } : { status: sendCount > 0 ? 'sent' : refusal ? 'failed' : 'missed' }),
  });
  return true;
}

/** How often the scheduler looks for due announcements. */
export const SCHEDULER_INTERVAL_MS = 1000;

/** Polls for due announcements on real time (what is due asks the clock); one pass at a time. */
export class AnnouncementScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(private readonly services: Services) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), SCHEDULER_INTERVAL_MS);
    this.timer.unref();
  }

  /** Runs a pass unless one is running. */
  tick(): Promise<unknown> {
    if (!this.running) {
      this.running = sendDueAnnouncements(this.services)
        .catch((error: unknown) => this.services.logger.error({ err: error }, 'announcement scheduler failed'))
        .finally(() => (this.running = null));
    }
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
