// Small helpers that put numbers and names into the sentences people read, used by the server's
// messages and the dashboard alike.

/** "1 second", "12 seconds": a count and its noun, plural unless the count is 1. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

/** Words written in capitals inside a field's name. */
const ACRONYMS = new Set(['xp', 'url', 'api', 'dm', 'id', 'csv']);

/** Words people know by another name. */
const KNOWN_AS: Record<string, string> = { guild: 'server' };

/**
 * A field's path as words, for a sentence: "welcomeChannelId" -> "welcome channel" (an id is named
 * by what it is the id of), "guildId" -> "server", "webhookUrl" -> "webhook URL",
 * "escalation.0.warnings" -> "escalation #1 warnings", "body" -> "the request body".
 */
export function fieldInWords(path: string): string {
  if (path === 'body') return 'the request body';
  return path
    .split('.')
    .flatMap((segment) => {
      if (/^\d+$/.test(segment)) return [`#${Number(segment) + 1}`];
      const words = segment
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .split(/[\s_]+/)
        .filter(Boolean)
        .map((word) => word.toLowerCase());
      if (words.length > 1 && words.at(-1) === 'id') words.pop();
      return words.map((word) => KNOWN_AS[word] ?? word).map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word));
    })
    .join(' ');
}

/** The text with a capital first letter and a full stop at the end (unless it ends a sentence already). */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
