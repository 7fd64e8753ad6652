// Emojis as REST paths name them (`👍`, `name:id`, `a:name:id`), and the key reactions of one emoji share.
import { UNICODE_EMOJI } from '../shared/emoji';
import type { ReactionRecord } from './types';

/** An emoji as a path segment names it: unicode `👍`, or custom `name:id` (`a:name:id` when animated). */
export function parseEmoji(raw: string): ReactionRecord['emoji'] {
  const custom = /^(a:)?([\w~-]{1,32}):(\d{17,20})$/.exec(raw);
  if (custom?.[2] && custom[3]) return { id: custom[3], name: custom[2], animated: Boolean(custom[1]) };
  return { id: null, name: raw, animated: false };
}

/** True when `raw` is one unicode emoji. */
export function isUnicodeEmoji(raw: string): boolean {
  return UNICODE_EMOJI.test(raw);
}

/** Reactions of one emoji share a key: the id of a custom emoji (its name may be typed any way), the unicode emoji itself. */
export function emojiKey(emoji: ReactionRecord['emoji']): string {
  return emoji.id ?? emoji.name;
}
