// What every message a person reads must be (issue 26): a sentence in words, ending in a full
// stop, that names no internal key ("rulesChannelId", "serverSettings.rateLimitPerMinute"),
// writes numbers with thousands separators, and does not say "try again" for a refusal.

/** Text a person typed or chose, quoted in a message ("unknownField", <:name:id>, {user}), is theirs: not judged. */
const QUOTED = /"[^"]*"|“[^”]*”|'[^']*'|<[^>]*>|\{[^}]*\}|`[^`]*`|#[0-9a-f]{3,8}\b/gi;
/** A key written as code: camelCase ("mentionRoleId"), or a dotted path ("recurrence.timeZone", "options.0"). */
const CODE = /\b[a-z]+[A-Z][A-Za-z]*\b|\b[a-zA-Z]+\.(\d+|[a-z]+[A-Z]\w*)\b/;
/** A whole number of four digits or more without separators (not an id of 15 digits or more, a time, a date or a decimal). */
const BARE_NUMBER = /(?<![\d,.:/#-])\d{4,14}(?![\d,:/-]|\.\d)/;

/** What is wrong with a message a person reads, or null. `refusal`: it answers a 4xx, where "try again" would mislead. */
export function sentenceProblem(message: string, { refusal = true }: { refusal?: boolean } = {}): string | null {
  const text = message.trim();
  if (text === '') return 'is empty';
  if (/^[a-z]/.test(text)) return 'does not start a sentence';
  if (!/[.!?]$/.test(text)) return 'does not end in a full stop';
  const words = text.replace(QUOTED, '""');
  const code = CODE.exec(words);
  if (code) return `names an internal key (${code[0]})`;
  const number = BARE_NUMBER.exec(words);
  if (number) return `writes ${number[0]} without thousands separators`;
  if (refusal && /try again/i.test(text)) return 'says "try again" for a refusal that will not change';
  return null;
}

/** Every problem of the messages of an API error body (`message` and each of `fields`), each with the message. */
export function errorBodyProblems(body: unknown, options?: { refusal?: boolean }): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const { message, fields } = body as { message?: unknown; fields?: unknown };
  const messages = [
    ...(typeof message === 'string' ? [['message', message]] : []),
    ...(typeof fields === 'object' && fields !== null ? Object.entries(fields).map(([key, value]) => [`fields[${key}]`, String(value)]) : []),
  ];
  return messages.flatMap(([where, text]) => {
    const problem = sentenceProblem(text ?? '', options);
    return problem ? [`${where} ${problem}: ${JSON.stringify(text)}`] : [];
  });
}
