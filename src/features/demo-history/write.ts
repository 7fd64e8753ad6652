// The product's side of the sandbox's demo month, written through the features' own functions on a
// clock walked through the month: messages earn XP and coins through the accruals' flush (levels
// follow XP, balances are the sum of their ledger rows), the activity recorder counts the days, the
// shop sells through buyItem (stock and limits hold), cases, reports and reaction-role use are
// recorded as they happened. Deterministic: the same history writes the same rows.
import { ActivityRecorder } from '../../core/activity';
import { ManualClock } from '../../core/clock';
import { DomainError } from '../../core/errors';
import type { Services } from '../../core/services';
import type { DemoHistory } from '../../sandbox/demo-history-types';
import { DURATIONS } from '../../shared/moderation';
import { mulberry32 } from '../../shared/seeded-random';
import { buyItem, createShopItem } from '../economy/public';
import { Accruals } from '../leveling/public';
import { createReport, dismissReport, recordCase } from '../moderation/public';
import { recordReactionRoleEvent, rememberReactionRoleMessage } from '../reaction-roles/public';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** How much of each the history wrote. */
export interface DemoCounts {
  messages: number;
  members: number;
  cases: number;
  reports: number;
  purchases: number;
}

const SHOP = [
  {
    name: 'Custom Color',
    description: 'Pick the colour of your name for a month.',
    price: 250,
    type: 'cosmetic',
    icon: '🎨',
    stock: null,
    perMemberLimit: null,
  },
  { name: 'Supporter Badge', description: 'A badge on your profile card.', price: 400, type: 'badge', icon: '🏅', stock: null, perMemberLimit: 1 },
  { name: 'Mystery Box', description: 'Who knows what is inside?', price: 150, type: 'other', icon: '🎁', stock: 40, perMemberLimit: 3 },
  { name: 'Golden Frame', description: 'A golden frame around your rank card.', price: 900, type: 'cosmetic', icon: '🖼️', stock: 5, perMemberLimit: 1 },
] as const;

/** One thing that happened, at its time. */
interface Happening {
  at: number;
  /** Coins must be written before it (a purchase reads the balance). */
  needsFlush?: boolean;
  run(): Promise<void> | void;
}

/** Writes the product's side of `history` for its guild (which must hold none of it yet). */
export async function writeDemoHistory(services: Services, history: DemoHistory): Promise<DemoCounts> {
  const { guildId } = history;
  const start = Math.min(history.anchorMs - 31 * DAY, ...history.messages.map((m) => m.at), history.reactionRoles.at) - HOUR;
  const clock = new ManualClock(start);
  const past: Services = { ...services, clock };
  const logger = services.logger.child({ face: 'demo-history' });
  const random = mulberry32(history.seed * 7 + 5);
  const names = new Map(history.people.map((person) => [person.userId, person.name]));
  const nameOf = (userId: string) => names.get(userId) ?? userId;
  const accruals = new Accruals({ writer: services.writer, clock, logger, settings: services.settings, random });
  const activity = new ActivityRecorder(services.writer, logger);
  const settings = await services.settings.get(guildId);
  const counts: DemoCounts = { messages: history.messages.length, members: 0, cases: history.cases.length, reports: history.reports.length, purchases: 0 };

  const items = [];
  for (const item of SHOP)
    items.push(await createShopItem(past, guildId, { ...item, roleId: null, isActive: true }, { actorId: history.people[0]?.userId ?? null, confirmed: [] }));

  const happenings: Happening[] = [];
  for (const message of history.messages) {
    happenings.push({
      at: message.at,
      run: () => {
        activity.message(guildId, message.authorId, message.at);
        const input = {
          guildId,
          userId: message.authorId,
          username: nameOf(message.authorId),
          messageId: message.id,
          channelId: message.channelId,
          booster: false,
        };
        accruals.message(input, settings);
      },
    });
  }
  for (const join of history.joins) happenings.push({ at: join.at, run: () => activity.join(guildId, new Date(join.at)) });
  for (const command of history.commands) happenings.push({ at: command.at, run: () => activity.command(guildId, command.name, new Date(command.at)) });
  for (const entry of history.cases) {
    happenings.push({
      at: entry.at,
      run: async () => {
        if (entry.action === 'ban' || entry.action === 'kick') activity.leave(guildId, new Date(entry.at));
        const expiresAt = entry.duration ? new Date(entry.at + DURATIONS[entry.duration]) : null;
        await recordCase(past, guildId, { ...entry, source: 'command', duration: entry.duration, expiresAt, dmDelivered: entry.action !== 'ban' });
      },
    });
  }
  for (const report of history.reports) {
    let id = 0;
    happenings.push({
      at: report.at,
      run: async () => {
        const made = await createReport(past, guildId, {
          reporter: { id: report.reporterId, name: report.reporterName },
          target: { id: report.targetId, name: report.targetName },
          reason: report.reason,
          message: report.message ?? undefined,
        });
        id = made.id;
      },
    });
    const dismissed = report.dismissed;
    if (dismissed) {
      const actor = { userId: dismissed.byId, name: nameOf(dismissed.byId), source: 'dashboard' } as const;
      happenings.push({ at: dismissed.at, run: async () => void (await dismissReport(past, guildId, id, actor)) });
    }
  }
  for (const announcement of history.announcements) {
    happenings.push({
      at: announcement.at,
      run: async () => {
        const at = new Date(announcement.at);
        await services.store.guild(guildId).Announcement.create({
          ...{ channelId: announcement.channelId, title: announcement.title, message: announcement.message, priority: announcement.priority },
          ...{ scheduleTime: null, status: 'sent', sentAt: at, messageId: announcement.messageId, error: null, attempts: 1, claimedUntil: null },
          ...{ createdById: announcement.byId, createdByName: announcement.byName, mentionRoleId: null, createdAt: at, updatedAt: at },
        });
      },
    });
  }
  happenings.push(...reactionRoleHappenings(services, past, history));
  // Purchases: members with coins buy now and then in the month's second half.
  const buyers = history.people.slice(0, 24);
  for (let n = 0; n < 40; n++) {
    const at = history.anchorMs - Math.floor(random() * 18 * DAY) - HOUR;
    const buyer = buyers[Math.floor(random() * buyers.length)];
    const item = items[Math.floor(random() * items.length)];
    if (!buyer || !item) continue;
    happenings.push({
      at,
      needsFlush: true,
      run: async () => {
        try {
          await buyItem(past, guildId, { userId: buyer.userId, username: buyer.name }, item.id);
          counts.purchases += 1;
        } catch (error) {
          // Too few coins, sold out, or at the limit: the shop refused, as it would have.
          if (!(error instanceof DomainError)) throw error;
        }
      },
    });
  }

  happenings.sort((a, b) => a.at - b.at);
  for (const happening of happenings) {
    // Accruals are written before the day turns (each day's XP lands on its day) and before a purchase (it reads the balance).
    if (happening.needsFlush || Math.floor(happening.at / DAY) !== Math.floor(clock.ms() / DAY)) await accruals.flush();
    clock.set(Math.max(clock.ms(), happening.at));
    await happening.run();
  }
  await accruals.flush();
  await activity.flush();
  counts.members = new Set(history.messages.map((message) => message.authorId)).size;
  return counts;
}

/** The roles menu's entries (made when the bot posted it) and each role given or taken since. */
function reactionRoleHappenings(services: Services, past: Services, history: DemoHistory): Happening[] {
  const { guildId, reactionRoles: menu } = history;
  const rows = new Map<string, Awaited<ReturnType<Services['store']['models']['ReactionRole']['create']>>>();
  return [
    {
      at: menu.at,
      run: async () => {
        for (const entry of menu.entries) {
          const row = await services.store.guild(guildId).ReactionRole.create({
            ...{ messageId: menu.messageId, channelId: menu.channelId, emoji: entry.emoji, emojiId: null, roleId: entry.roleId, roleName: entry.roleName },
            ...{ mode: 'normal', isActive: true, inactiveReason: null, createdBy: menu.createdById, createdAt: new Date(menu.at) },
          });
          rows.set(entry.emoji, row);
        }
        rememberReactionRoleMessage(services, guildId, menu.messageId);
      },
    },
    ...menu.events.map((event) => ({
      at: event.at,
      run: async () => {
        const row = rows.get(event.emoji);
        if (row) await recordReactionRoleEvent(past, row, event.userId, event.action, null);
      },
    })),
  ];
}
