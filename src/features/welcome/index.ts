import { Events, type Guild } from 'discord.js';
import * as z from 'zod';
import { listener, type Feature } from '../../core/feature';
import { guildRoute } from '../../http/route';
import { optionalId, text } from '../../shared/fields';
import { welcomeLengthProblem, type WelcomeLogEntry } from '../../shared/welcome';
import type { Services } from '../../core/services';
import type { Diagnostic } from '../../shared/diagnostics';
import type { GuildSettings } from '../../shared/settings';
import { settingProblem } from '../../core/checks';
import { catchUpJoins } from './catchup';
import { checkWelcomeLength, recentWelcomes, testWelcome, welcomeMember } from './service';
import { welcomeState } from './state';
import { goodbyeOnLeave } from './goodbye';
import { canAttachIn, welcomeCardFor } from './card-service';
import { GOODBYE_MISSING_CHANNEL, WelcomeCardPreviewQuery } from '../../shared/welcome-card';
import { InvalidInput } from '../../core/errors';

/** POST /welcome/test: the form's channel and message, unsaved, or the saved ones. */
const WelcomeTestInput = z.object({ welcomeChannelId: optionalId().optional(), welcomeMessage: text(2000).optional() }).strict();

/** A member joined: the welcome message (and DM) when the welcome is on. */
const welcomeOnJoin = listener(Events.GuildMemberAdd, 'WelcomeMember', async (services, member) => {
  if (member.user.bot) return;
  await welcomeMember(services, { guildId: member.guild.id, userId: member.id, username: member.user.username, joinedAt: member.joinedAt }, 'join');
});

/**
 * Welcomes whoever joined while the bot was not listening, then records when the bot saw the
 * guild (from now on, and even when catching up failed, so one bad start does not repeat forever).
 */
async function catchUpGuild(services: Services, guild: Guild): Promise<void> {
  try {
    await catchUpJoins(services, guild);
  } finally {
    welcomeState.of(services).lastSeen.mark(guild.id);
  }
}

/** What stops the welcome from working now. */
function diagnoseWelcome(services: Services, guildId: string, settings: GuildSettings): Diagnostic[] {
  const items: Diagnostic[] = [];
  const goodbye = settings.goodbyeEnabled ? settingProblem(services, guildId, settings, 'goodbyeChannelId') : null;
  if (goodbye)
    items.push({ feature: 'welcome', severity: 'error', problem: `Goodbye channel: ${goodbye.problem}`, fix: goodbye.fix, subject: 'goodbyeChannelId' });
  if (!settings.welcomeEnabled) return items;
  const channel = settingProblem(services, guildId, settings, 'welcomeChannelId');
  if (channel)
    items.push({ feature: 'welcome', severity: 'error', problem: `Welcome channel: ${channel.problem}`, fix: channel.fix, subject: 'welcomeChannelId' });
  if (settings.welcomeCardEnabled && settings.welcomeChannelId && !channel && !canAttachIn(services, guildId, settings.welcomeChannelId))
    items.push({
      feature: 'welcome',
      severity: 'warning',
      problem: 'The bot may not attach files in the welcome channel: welcomes go out without the card.',
      fix: "Give the bot's role Attach Files in the welcome channel.",
      subject: 'welcomeCardEnabled',
    });
  const guild = services.gateway.guild(guildId);
  for (const field of ['welcomeMessage', 'welcomeDmMessage'] as const) {
    if (field === 'welcomeDmMessage' && !settings.welcomeDmEnabled) continue;
    const problem = guild ? welcomeLengthProblem(settings[field], guild.name) : null;
    if (problem) {
      const name = field === 'welcomeMessage' ? 'welcome message' : 'join DM';
      items.push({ feature: 'welcome', severity: 'error', problem: `The ${name} ${problem}.`, fix: 'Shorten it on the Welcome page.', subject: field });
    }
  }
  return items;
}

/** The Welcome System: the welcome on join with its placeholders and DM, Test Message, Recent Welcome Messages, and joins caught up on after a restart. */
export const welcomeFeature: Feature = {
  name: 'welcome',
  listeners: [welcomeOnJoin, goodbyeOnLeave],
  catchUp: catchUpGuild,
  settingsEffects: [
    {
      keys: ['welcomeMessage', 'welcomeDmMessage', 'goodbyeMessage'],
      check: (_services, guild, next) => {
        checkWelcomeLength('welcomeMessage', next.welcomeMessage, guild.name);
        checkWelcomeLength('welcomeDmMessage', next.welcomeDmMessage, guild.name);
        checkWelcomeLength('goodbyeMessage', next.goodbyeMessage, guild.name);
      },
    },
    {
      keys: ['goodbyeEnabled', 'goodbyeChannelId'],
      check: (_services, _guild, next) => {
        if (next.goodbyeEnabled && !next.goodbyeChannelId) throw InvalidInput.field('goodbyeChannelId', GOODBYE_MISSING_CHANNEL, GOODBYE_MISSING_CHANNEL);
      },
    },
  ],
  diagnose: diagnoseWelcome,
  routes: [
    guildRoute({
      method: 'post',
      path: '/welcome/test',
      body: WelcomeTestInput,
      example: {
        body: { welcomeChannelId: ':channelId' },
      },
      handler: ({ body, guild, account, services }) => testWelcome(services, guild, { userId: account.userId, username: account.username }, body),
    }),
    guildRoute({
      method: 'get',
      path: '/welcome/card/preview',
      // Drawn for the admin editing the card (their own avatar and name), never kept.
      access: 'edit',
      cache: false,
      query: WelcomeCardPreviewQuery,
      example: { query: { title: 'Hello {username}', accent: '#ff0000' } },
      handler: async ({ query, guild, account, services, ctx }) => {
        const settings = await services.settings.get(guild.id);
        const member = { userId: account.userId, username: account.username, memberNumber: guild.memberCount };
        const png = await welcomeCardFor(services, guild, member, settings, query);
        ctx.type = 'image/png';
        ctx.set('Cache-Control', 'private, no-store');
        ctx.body = png;
      },
    }),
    guildRoute({
      method: 'get',
      path: '/welcome/recent',
      example: {},
      handler: ({ guild, services }): Promise<WelcomeLogEntry[]> => recentWelcomes(services, guild.id),
    }),
  ],
  state: welcomeState,
  start: (services) => welcomeState.of(services).lastSeen.start(),
  stop: (services) => welcomeState.of(services).lastSeen.stop(),
};
