// What each auto moderation rule will do, in words, with an example (issue 24, point 7): written
// from the rule's current settings, so the dashboard's sentence changes as the moderator edits.
import { AUTOMOD_LIMITS, DURATION_LABELS, type AutomodLimit, type AutomodRuleName, type AutomodRules } from './moderation';
import { counted } from './words';

/** A rule's settings as they stand while edited: a number may be NaN or out of range while typed. */
export type RuleSettings<N extends AutomodRuleName> = AutomodRules[N];

/** ", and warns the author" / ", and times the author out for 10 minutes" / "": what comes after the delete. */
function andThen(rule: { action: string; duration: keyof typeof DURATION_LABELS | null }): string {
  if (rule.action === 'warn') return ', and warns the author';
  if (rule.action === 'timeout') return `, and times the author out for ${rule.duration ? DURATION_LABELS[rule.duration] : 'the duration set'}`;
  return '';
}

/** “a”, “b” or “c”; with more than three, the first three and how many others. */
function quoted(list: readonly string[], joiner: 'or' | 'and'): string {
  const shown = list.slice(0, 3).map((item) => `“${item}”`);
  const more = list.length - shown.length;
  if (more > 0) return `${shown.join(', ')} ${joiner} ${counted(more, 'other')}`;
  if (shown.length === 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} ${joiner} ${shown[shown.length - 1] ?? ''}`;
}

/** Whether a number of the rule is one the settings accept. */
const valid = (key: AutomodLimit, value: number) => Number.isInteger(value) && value >= AUTOMOD_LIMITS[key].min && value <= AUTOMOD_LIMITS[key].max;
const UNSET = 'Give the numbers above to see what this rule does.';

/** A domain to show in the links example, not on the allow list. */
function foreignDomain(allowed: readonly string[]): string {
  const list = allowed.map((domain) => domain.toLowerCase());
  return (
    ['example.com', 'example.net', 'example.org', 'unknown-site.test'].find((domain) => !list.some((a) => domain === a || domain.endsWith(`.${a}`))) ??
    'a-new-site.test'
  );
}

/** A shouted message with at least `letters` letters. */
function shouting(letters: number): string {
  const words = ['WHY', 'IS', 'NOBODY', 'ANSWERING', 'ME'];
  const out: string[] = [];
  for (let count = 0, i = 0; count < letters; i += 1) {
    const word = words[i % words.length] ?? 'ME';
    out.push(word);
    count += word.length;
  }
  return out.join(' ');
}

/** The sentence for one rule: what it does, then "Example: …". */
export function describeRule<N extends AutomodRuleName>(name: N, rule: RuleSettings<N>): string {
  /** What the rule does, what else its action does, then the example. */
  const say = (what: string, example: string) => `${what}${andThen(rule)}. Example: ${example}.`;
  switch (name) {
    case 'invites':
      return say('Deletes messages with an invite to another Discord server', '“join us at discord.gg/abc123”');
    case 'links': {
      const { allowedDomains } = rule as RuleSettings<'links'>;
      const which = allowedDomains.length > 0 ? `a site other than ${quoted(allowedDomains, 'and')}` : 'any site';
      return say(`Deletes messages with a link to ${which}`, `“look at https://${foreignDomain(allowedDomains)}/page”`);
    }
    case 'mentions': {
      const { maxMentions } = rule as RuleSettings<'mentions'>;
      if (!valid('maxMentions', maxMentions)) return UNSET;
      const what = `Deletes messages with more than ${counted(maxMentions, 'mention')} of members or roles, or any @everyone or @here`;
      return say(what, `a message pinging ${counted(maxMentions + 1, 'member')}`);
    }
    case 'repeats': {
      const { maxRepeats } = rule as RuleSettings<'repeats'>;
      if (!valid('maxRepeats', maxRepeats)) return UNSET;
      const allowed = maxRepeats === 1 ? 'once' : `${maxRepeats} times`;
      const what = `Allows the same message ${allowed} in a row within a minute and deletes the next identical one`;
      return say(what, `“hi!” sent ${counted(maxRepeats + 1, 'time')} in a row: the last is deleted`);
    }
    case 'rate': {
      const { maxMessages, perSeconds } = rule as RuleSettings<'rate'>;
      if (!valid('maxMessages', maxMessages) || !valid('perSeconds', perSeconds)) return UNSET;
      const within = counted(perSeconds, 'second');
      return say(
        `Allows a member ${counted(maxMessages, 'message')} in ${within} and deletes the next one`,
        `${counted(maxMessages + 1, 'message')} sent within ${within}: the last is deleted`,
      );
    }
    case 'words': {
      const { words } = rule as RuleSettings<'words'>;
      if (words.length === 0) return 'Blocks no words yet: add words or phrases to the list to have messages containing them deleted.';
      return say(`Deletes messages containing ${quoted(words, 'or')} as a whole word`, `“well, ${words[0] ?? ''} then”`);
    }
    case 'caps': {
      const { maxPercent, minLength } = rule as RuleSettings<'caps'>;
      if (!valid('maxPercent', maxPercent) || !valid('minLength', minLength)) return UNSET;
      if (maxPercent >= 100) return 'Lets every message through: at 100 % capitals, nothing is too loud. Lower the share to catch shouting.';
      const what = `Deletes messages of at least ${counted(minLength, 'letter')} where more than ${maxPercent} % of the letters are capitals`;
      return say(what, `“${shouting(minLength)}”`);
    }
  }
  return '';
}
