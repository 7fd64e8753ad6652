// "Try these rules" on both faces (issue 24, point 5): the dashboard's route replays the rules being
// edited, /automod try the saved ones; both call tryAutomodRules, which acts on nothing.
import { PermissionFlagsBits } from 'discord.js';
import { read, type Command, type Subcommand } from '../../bot/command';
import { InvalidInput } from '../../core/errors';
import { isSnowflake } from '../../shared/auth';
import { AUTOMOD_TRY_LIMITS, AutomodTryInput, automodTrySummary, type AutomodTryResult } from '../../shared/automod-try';
import { AUTOMOD_DEFAULTS, AUTOMOD_RULE_NAMES } from '../../shared/moderation';
import { guildRoute } from '../../http/route';
import { tryAutomodRules } from './automod/dry-run';

/** POST /moderation/automod/try: the draft's rules against a channel's latest messages. */
export const automodTryRoutes = [
  guildRoute({
    method: 'post',
    path: '/moderation/automod/try',
    body: AutomodTryInput,
    example: { body: { rules: AUTOMOD_DEFAULTS, channelId: ':channelId', limit: 25 } },
    handler: ({ body, guild, account, services }): Promise<AutomodTryResult> => tryAutomodRules(services, guild.id, body, account.userId),
  }),
];

/** Said under a try while the server's switch is off, so nobody takes the rules for running. */
const AUTOMOD_OFF_NOTE = 'Auto moderation is off in this server: these rules do not run until it is turned on.';

/** A reply fits in one Discord message (2,000 characters) with room to spare. */
const MAX_REPLY = 1900;

/** The reply of /automod try: the summary, then one line per message acted on, as many as fit. */
export function automodTryReply(result: AutomodTryResult): string {
  const hits = result.messages.filter((message) => message.hits.length > 0);
  const head = hits.length > 0 ? automodTrySummary(result, result.channelName).replace(/\.$/, ':') : automodTrySummary(result, result.channelName);
  const lines: string[] = [];
  let length = head.length;
  for (const [index, message] of hits.entries()) {
    const hit = message.hits[0];
    const line = `• ${message.authorName}: “${message.excerpt}” → ${hit ? `${AUTOMOD_RULE_NAMES[hit.rule]}: ${hit.what.toLowerCase()}` : ''}`;
    const rest = hits.length - index;
    if (length + line.length + 40 > MAX_REPLY) {
      lines.push(`…and ${rest} more: try the rules on the dashboard's Moderation page to see them all.`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  const notJudged = result.skipped ? `\n(${result.skipped} from bots or Discord itself were not judged, as auto moderation does not judge them.)` : '';
  return `${[head, ...lines].join('\n')}${notJudged}\nNothing was deleted or recorded: this was only a try.`;
}

/** /automod try [channel] [count]: the saved rules against a channel's latest messages (a dry run: nothing is done). */
const tryRules: Subcommand = {
  name: 'try',
  description: "Try the saved auto moderation rules on a channel's recent messages (nothing is done)",
  options: [
    { type: 'channel', name: 'channel', description: 'Which channel (this one if left out)' },
    {
      type: 'integer',
      name: 'count',
      description: `How many of its latest messages (${AUTOMOD_TRY_LIMITS.default} if left out)`,
      min: AUTOMOD_TRY_LIMITS.min,
      max: AUTOMOD_TRY_LIMITS.max,
    },
  ],
  async run(invocation) {
    const channelId = read.string(invocation, 'channel') ?? invocation.channelId;
    if (!isSnowflake(channelId)) throw InvalidInput.field('channel', 'must be a channel', 'That is not a channel of this server.');
    const settings = await invocation.services.settings.get(invocation.guildId);
    const request = {
      rules: settings.automodRules,
      includeStaff: settings.automodIncludeStaff,
      channelId,
      limit: read.number(invocation, 'count') ?? AUTOMOD_TRY_LIMITS.default,
    };
    const reply = automodTryReply(await tryAutomodRules(invocation.services, invocation.guildId, request, invocation.user.id));
    return settings.automodEnabled ? reply : `${reply}\n${AUTOMOD_OFF_NOTE}`;
  },
};

/** /automod try: Manage Server, answered privately (a group, so later auto moderation commands join it). */
export const automodTryCommand: Command = {
  name: 'automod',
  description: 'Auto moderation: try the saved rules on recent messages',
  permission: PermissionFlagsBits.ManageGuild,
  ephemeral: true,
  subcommands: [tryRules],
  run: async ({ prefix }) => `Use ${prefix}automod try [channel] [count].`,
};
