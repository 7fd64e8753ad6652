// What a person reads when a field is wrong: a sentence that names the field in words ("Item name
// is required."), never its key. The schemas keep their short problems ("is required", "must be
// between 1 and 1,000"); the words of each field live here once, used by the server's answers
// (validation and the domain's refusals) and the dashboard's own checks alike.
import { fieldInWords } from './words';

/** A field's key -> its label, where its key in words would not say it (or says it badly). */
export type FieldLabels = Readonly<Record<string, string>>;

/**
 * The labels of fields the dashboard's forms name otherwise than their key in words, and of keys
 * that read as code ("levelUpEveryN"). A key not listed is named by its words (words.ts).
 */
export const FIELD_LABELS: FieldLabels = {
  welcomeEnabled: 'Welcome messages',
  welcomeDmEnabled: 'Welcome DM',
  welcomeCardEnabled: 'Welcome card',
  welcomeCardAccent: 'Welcome card colour',
  verificationEnabled: 'Rule verification',
  verificationMinAccountDays: 'Minimum account age',
  verificationYoungAccounts: 'Younger accounts',
  verificationOnUnreact: 'What happens when a member removes their reaction',
  goodbyeEnabled: 'Goodbye messages',
  levelingEnabled: 'Leveling',
  levelUpBonus: 'Level-up bonus',
  levelUpAnnouncements: 'Level-up announcements',
  levelUpDestination: 'Where level-ups are announced',
  levelUpChannelId: 'Level-up channel',
  levelUpMessage: 'Level-up message',
  levelUpWhen: 'When level-ups are announced',
  levelUpEveryN: 'Every how many levels',
  levelRewardsStack: 'Stacked role rewards',
  xpExcludedChannelIds: 'The list of no-XP channels',
  xpExcludedRoleIds: 'The list of no-XP roles',
  xpChannelMultipliers: 'The list of channel multipliers',
  xpRoleMultipliers: 'The list of role multipliers',
  economyEnabled: 'Economy',
  autoRoleEnabled: 'Auto-role',
  automodEnabled: 'Automod',
  automodIncludeStaff: 'Automod for staff',
  automodRules: 'Automod rules',
  musicEnabled: 'Music',
  notifyJoinLeave: 'Join and leave notifications',
  notifyLevelUp: 'Level-up notifications',
  notifyModeration: 'Moderation alerts',
  notifyErrors: 'Error notifications',
  rateLimitPerMinute: 'Rate limit (commands per minute)',
  commandPrefix: 'Command prefix',
  appealsEnabled: 'Appeals',
  appealIntro: 'Words on the appeal page',
  warningExpiryDays: 'Warning expiry (days)',
  musicDjRoleId: 'DJ role',
  musicVoteSkipRatio: 'Vote to skip share',
  musicMaxQueueLength: 'Longest queue',
  musicPerMemberQueueLimit: 'Tracks per member in the queue',
  musicMaxTrackSeconds: 'Longest track (seconds)',
  musicDefaultVolume: 'Default volume',
  musicLeaveWhenAloneSeconds: 'Leave when alone after (seconds)',
  musicRadioChannelId: 'Radio channel',
  musicRadioStationId: 'Radio station',
  musicAnnounceChannelId: 'Now-playing channel',
  raidRule: 'Join-raid protection',
  accountAgeRule: 'Account-age protection',
  minDays: 'Minimum account age (days)',
  mentionRoleId: 'Role to ping',
  scheduleTime: 'Schedule',
  userId: 'Member',
  targetId: 'Member',
  roleId: 'Role',
  channelId: 'Channel',
  messageId: 'Message ID',
  guildId: 'Server',
  serverId: 'Server',
  perMemberLimit: 'Limit per member',
  isActive: 'For sale',
  maxPercent: 'Most capitals (%)',
  minLength: 'Shortest message checked',
  maxMentions: 'Most mentions in one message',
  maxMessages: 'Most messages',
  perSeconds: 'Per seconds',
  maxRepeats: 'Most identical messages in a row',
  exemptChannelIds: 'Exempt channels',
  exemptRoleIds: 'Exempt roles',
  allowedDomains: 'Allowed domains',
  weekdays: 'Days of the week',
  timeZone: 'Time zone',
  dayOfMonth: 'Day of the month',
  confirmRoleIds: 'Confirmed roles',
  baseVersion: 'The version this page was loaded at',
};

/** Keys that hold other fields, as they read before a field of theirs: "Action (excessive capitals rule)". */
const CONTEXT_LABELS: FieldLabels = {
  invites: 'invite links rule',
  links: 'links rule',
  mentions: 'mass mentions rule',
  repeats: 'repeated messages rule',
  rate: 'message rate rule',
  words: 'blocked words rule',
  caps: 'excessive capitals rule',
  recurrence: 'repeat',
  xpChannelMultipliers: 'channel multiplier',
  xpRoleMultipliers: 'role multiplier',
  action: 'action',
};

/** Parts of a path that only wrap the fields (an import file's `serverSettings`): not named. */
const WRAPPERS = new Set(['body', 'file', 'serverSettings', 'automodRules', 'rules']);

/** "Text multiplier": the first letter a capital, the rest as written. */
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One key in words: its label, or its key in words. */
function keyInWords(key: string, labels: FieldLabels): string {
  return labels[key] ?? FIELD_LABELS[key] ?? fieldInWords(key);
}

/**
 * A field's path as the label a sentence starts with: "name" -> "Item name" (with the form's
 * labels), "serverSettings.rateLimitPerMinute" -> "Rate limit (commands per minute)",
 * "xpRoleMultipliers.0.multiplier" -> "Role multiplier #1: multiplier", "exemptRoleIds.2" -> "Exempt roles #3".
 */
export function fieldLabel(path: string, labels: FieldLabels = {}): string {
  if (path === '' || path === 'body') return 'The request body';
  const segments = path.split('.');
  while (segments.length > 1 && WRAPPERS.has(segments[0] ?? '')) segments.shift();
  const words = (segment: string) => (/^\d+$/.test(segment) ? `#${Number(segment) + 1}` : keyInWords(segment, labels));
  let leafAt = segments.length - 1;
  while (leafAt > 0 && /^\d+$/.test(segments[leafAt] ?? '')) leafAt -= 1;
  // A list's item alone (a body that is a list) is an entry.
  const leaf = `${/^\d+$/.test(segments[leafAt] ?? '') ? 'Entry ' : ''}${segments.slice(leafAt).map(words).join(' ')}`;
  const context = segments
    .slice(0, leafAt)
    .map((segment) => CONTEXT_LABELS[segment] ?? words(segment))
    .join(' ');
  if (!context) return capitalized(leaf);
  // "Excessive capitals rule: most capitals (%)": the leaf in lower case unless it starts with an acronym ("XP cooldown").
  return `${capitalized(context)}: ${/^[A-Z][a-z]/.test(leaf) ? leaf.charAt(0).toLowerCase() + leaf.slice(1) : leaf}`;
}

/** Problems that read after a field's name ("Price must be..."); anything else follows a colon ("Days: pick at least one."). */
const VERB_FIRST = new RegExp(
  `^(${[
    'must|is|are|was|were|cannot|can|could|has|have|had|needs?|names?|uses?|does|do|should|would|will|may|contains?|already',
    'starts?|ends?|repeats?|gives?|allows?|takes?|holds?|lists?|exceeds?|reaches|matches|points?|refers?|appears?|includes?',
    'not|only|comes?|goes|gets?|leaves?|lets?|hands?',
  ].join('|')})\\b`,
);

/** A problem that is a sentence of its own: it starts with a capital, a mention, a channel, a number or an emoji. */
const SENTENCE_START = /^([A-Z0-9@#"'“]|\p{Extended_Pictographic})/u;

/** Whole numbers of 4 to 15 digits standing alone (not part of an id, a time, a date or a decimal), for thousands separators. */
const BARE_NUMBER = /(?<![\w.,:/#@<>'"-])\d{4,15}(?![\w,:/'"-]|\.\d)/g;

/** Writes whole numbers with thousands separators: "between 0 and 1000000" -> "between 0 and 1,000,000". */
export function withSeparators(text: string): string {
  return text.replace(BARE_NUMBER, (digits) => Number(digits).toLocaleString('en-US'));
}

/** The text with a capital first letter and a full stop at the end (unless it ends a sentence already). */
function sentence(text: string): string {
  const trimmed = capitalized(text.trim());
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * What is wrong with a field, as a sentence naming it: ("name", "is required") -> "Name is
 * required."; a problem that is a sentence already ("@Member cannot be pinged...", "Please pick
 * the channel...", "🔴 already gives a role") is kept, with its full stop.
 */
export function fieldSentence(path: string, problem: string, labels: FieldLabels = {}): string {
  const text = withSeparators(problem.trim());
  if (text === '') return sentence(`${fieldLabel(path, labels)} is not valid`);
  if (SENTENCE_START.test(text)) return sentence(text);
  // Written as a whole sentence already, its subject a name ("drifter is not a member of this server."): kept as it is.
  if (/[.!?]$/.test(text) && !VERB_FIRST.test(text)) return text;
  const label = fieldLabel(path, labels);
  return sentence(/^[a-z]/.test(text) && !VERB_FIRST.test(text) ? `${label}: ${text}` : `${label} ${text}`);
}

/** Every field's problem as a sentence naming it (fieldSentence), keyed as before. */
export function fieldSentences(fields: Readonly<Record<string, string>>, labels: FieldLabels = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([path, problem]) => [path, fieldSentence(path, problem, labels)]));
}

/** Labels a schema's fields for the messages about it: set on the schema by labelFields, read by the validation. */
const SCHEMA_LABELS = new WeakMap<object, FieldLabels>();

/** Names a schema's fields as its form does ("name" -> "Item name"); returns the schema. */
export function labelFields<S extends object>(schema: S, labels: FieldLabels): S {
  SCHEMA_LABELS.set(schema, labels);
  return schema;
}

/** The labels set on a schema by labelFields (none when it has none). */
export function labelsOf(schema: object): FieldLabels {
  return SCHEMA_LABELS.get(schema) ?? {};
}
