// The moderation settings form: its editable copy (numbers and lists as typed) and the PUT body.
// Each auto moderation rule's own fields are listed once in RULE_FIELDS; the card and the body
// both read them.
import {
  AUTOMOD_LIMITS,
  type AutomodAction,
  type AutomodLimit,
  type AutomodRuleName,
  type AutomodRules,
  type Duration,
  type ESCALATION_ACTIONS,
} from '../../../src/shared/moderation';
import type { SettingsUpdate, SettingsView } from '../../../src/shared/settings';
import { parseWhole } from '../../numbers';

/** What an escalation step does. */
export type EscalationAction = (typeof ESCALATION_ACTIONS)[number];

/** A number field of a rule, with its limits (the shared schema's). */
export interface RuleNumberField {
  kind: 'number';
  key: string;
  label: string;
  hint: string;
  min: number;
  max: number;
}

/** A list field of a rule, typed one entry per line. */
export interface RuleListField {
  kind: 'list';
  key: string;
  label: string;
  hint: string;
  placeholder: string;
}

export type RuleField = RuleNumberField | RuleListField;

/** A number field with the shared schema's range; its hint says what the limit lets through and ends with the range. */
function limitField(key: AutomodLimit, label: string, meaning: string, unit = ''): RuleNumberField {
  const { min, max } = AUTOMOD_LIMITS[key];
  return { kind: 'number', key, label, hint: `${meaning} From ${min} to ${max}${unit}.`, min, max };
}

/** What each rule catches, and its own fields. */
export const RULE_FIELDS: Record<AutomodRuleName, { catches: string; fields: RuleField[] }> = {
  invites: { catches: 'Invite links to other Discord servers.', fields: [] },
  links: {
    catches: 'Links to sites that are not on the allow list.',
    fields: [{ kind: 'list', key: 'allowedDomains', label: 'Allowed domains', hint: 'One per line, up to 100.', placeholder: 'youtube.com\ngithub.com' }],
  },
  mentions: {
    catches: 'Messages that mention too many members or roles.',
    fields: [limitField('maxMentions', 'Most mentions in one message', 'A message with more is deleted (so is any @everyone or @here).')],
  },
  repeats: {
    catches: 'The same message sent again and again.',
    fields: [limitField('maxRepeats', 'Most identical messages in a row', 'That many are allowed within a minute; the next identical one is deleted.')],
  },
  rate: {
    catches: 'Too many messages in a short time.',
    fields: [
      limitField('maxMessages', 'Most messages', 'That many are allowed in the time below; the next one is deleted.'),
      limitField('perSeconds', 'Per seconds', 'The length of that time, in seconds.'),
    ],
  },
  words: {
    catches: 'Messages that contain a blocked word.',
    fields: [{ kind: 'list', key: 'words', label: 'Word list', hint: 'One word or phrase per line, up to 500.', placeholder: 'badword\nanother phrase' }],
  },
  caps: {
    catches: 'Messages written mostly in capital letters.',
    fields: [
      limitField('maxPercent', 'Most capitals (%)', 'A message with a higher share of capital letters is deleted; 100 lets every message through.', ' %'),
      limitField('minLength', 'Fewest letters checked', 'Messages with fewer letters are not checked (links, mentions and emojis do not count).'),
    ],
  },
};

/** The rules in the order the page shows them. */
export const RULE_NAMES = Object.keys(RULE_FIELDS) as AutomodRuleName[];

/** One rule as the form holds it: its own fields as the text typed. */
export interface RuleDraft {
  enabled: boolean;
  action: AutomodAction;
  duration: Duration | null;
  exemptRoleIds: string[];
  exemptChannelIds: string[];
  values: Record<string, string>;
}

/** One escalation step as the form holds it. */
export interface StepDraft {
  warnings: string;
  action: EscalationAction;
  duration: Duration | null;
}

/** The form's copy. */
export interface Draft {
  moderationDm: SettingsView['moderationDm'];
  warningExpiryDays: string;
  escalation: StepDraft[];
  automodEnabled: boolean;
  automodRules: Record<AutomodRuleName, RuleDraft>;
  automodIncludeStaff: boolean;
  /** Ban appeals (appeals-card.tsx). */
  appealsEnabled: boolean;
  appealIntro: string;
}

/** A rule's own fields (numbers and lists) from the stored rule. */
function valuesOf(name: AutomodRuleName, rule: AutomodRules[AutomodRuleName]): Record<string, string> {
  const stored: Record<string, unknown> = { ...rule };
  const values: Record<string, string> = {};
  for (const field of RULE_FIELDS[name].fields) {
    const value = stored[field.key];
    values[field.key] = Array.isArray(value) ? value.join('\n') : String(value ?? '');
  }
  return values;
}

/** The form filled from the server's settings. */
export function draftOf(view: SettingsView): Draft {
  const stored = view.automodRules;
  const rule = (name: AutomodRuleName): RuleDraft => {
    const { enabled, action, duration, exemptRoleIds, exemptChannelIds } = stored[name];
    return { enabled, action, duration, exemptRoleIds: [...exemptRoleIds], exemptChannelIds: [...exemptChannelIds], values: valuesOf(name, stored[name]) };
  };
  const rules: Record<AutomodRuleName, RuleDraft> = {
    invites: rule('invites'),
    links: rule('links'),
    mentions: rule('mentions'),
    repeats: rule('repeats'),
    rate: rule('rate'),
    words: rule('words'),
    caps: rule('caps'),
  };
  return {
    moderationDm: { ...view.moderationDm },
    warningExpiryDays: String(view.warningExpiryDays),
    escalation: view.escalation.map((step) => ({ warnings: String(step.warnings), action: step.action, duration: step.duration })),
    automodEnabled: view.automodEnabled,
    automodRules: rules,
    automodIncludeStaff: view.automodIncludeStaff,
    appealsEnabled: view.appealsEnabled,
    appealIntro: view.appealIntro ?? '',
  };
}

/** A list typed one entry per line: trimmed, blank lines left out. */
export const parseList = (text: string | undefined) =>
  (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** What every rule sends: its switch, action, the duration only for a timeout, and the exemptions. */
function ruleBase(rule: RuleDraft) {
  return {
    enabled: rule.enabled,
    action: rule.action,
    duration: rule.action === 'timeout' ? rule.duration : null,
    exemptRoleIds: rule.exemptRoleIds,
    exemptChannelIds: rule.exemptChannelIds,
  };
}

/** One rule as the settings store it, from the form's copy (numbers not typed yet read 0). */
export function ruleBodyOf<N extends AutomodRuleName>(name: N, rule: RuleDraft): AutomodRules[N];
export function ruleBodyOf(name: AutomodRuleName, rule: RuleDraft): AutomodRules[AutomodRuleName] {
  const whole = (key: string) => parseWhole(rule.values[key] ?? '');
  const base = ruleBase(rule);
  switch (name) {
    case 'invites':
      return base;
    case 'links':
      return { ...base, allowedDomains: parseList(rule.values.allowedDomains) };
    case 'mentions':
      return { ...base, maxMentions: whole('maxMentions') };
    case 'repeats':
      return { ...base, maxRepeats: whole('maxRepeats') };
    case 'rate':
      return { ...base, maxMessages: whole('maxMessages'), perSeconds: whole('perSeconds') };
    case 'words':
      return { ...base, words: parseList(rule.values.words) };
    case 'caps':
      return { ...base, maxPercent: whole('maxPercent'), minLength: whole('minLength') };
  }
}

/** Every rule as the settings store them (the PUT body's, and what "Try these rules" replays). */
export function rulesBodyOf(draft: Draft): AutomodRules {
  const r = draft.automodRules;
  return {
    invites: ruleBodyOf('invites', r.invites),
    links: ruleBodyOf('links', r.links),
    mentions: ruleBodyOf('mentions', r.mentions),
    repeats: ruleBodyOf('repeats', r.repeats),
    rate: ruleBodyOf('rate', r.rate),
    words: ruleBodyOf('words', r.words),
    caps: ruleBodyOf('caps', r.caps),
  };
}

/** The PUT body. */
export function bodyOf(draft: Draft): SettingsUpdate {
  return {
    moderationDm: draft.moderationDm,
    warningExpiryDays: parseWhole(draft.warningExpiryDays),
    escalation: draft.escalation.map((step) => ({
      warnings: parseWhole(step.warnings),
      action: step.action,
      duration: step.action === 'timeout' ? step.duration : null,
    })),
    automodEnabled: draft.automodEnabled,
    automodRules: rulesBodyOf(draft),
    automodIncludeStaff: draft.automodIncludeStaff,
    appealsEnabled: draft.appealsEnabled,
    appealIntro: draft.appealIntro,
  };
}

/** The server's message for a field or anything under it ('automodRules.words.words.3'), first found. */
export function errorUnder(errors: Record<string, string>, path: string): string | undefined {
  if (errors[path]) return errors[path];
  const nested = Object.keys(errors).find((key) => key.startsWith(`${path}.`));
  if (!nested) return undefined;
  const index = nested.slice(path.length + 1).split('.')[0];
  return /^\d+$/.test(index ?? '') ? `Entry ${Number(index) + 1} ${errors[nested]}` : errors[nested];
}
