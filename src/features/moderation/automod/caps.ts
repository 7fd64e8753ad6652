// The caps rule: whether a message is mostly capitals, counting letters only.
//
// Deliberate limit: bare domains count as text (http(s) links, mentions and custom emojis do not).
import { ASTRAL_LETTER, ASTRAL_UPPER, classes, LETTER, UPPER } from './characters';

/** A Discord mention, channel, custom emoji, timestamp or command token: not text. */
const DISCORD_TOKEN = /<(?:@[!&]?\d{1,20}|#\d{1,20}|a?:\w{1,32}:\d{1,20}|t:-?\d{1,20}(?::[a-zA-Z])?|\/[^<>:\s][^<>:]{0,99}:\d{1,20}|id:\w{1,20})>/y;
const HTTP_LINK = /https?:\/\/[^\s<>]*/iy;
const MASS_MENTION = /@(?:everyone|here)/y;

/**
 * Whether at least `minLength` letters are counted and capitals are more than `maxPercent` of them
 * (the limit allows exactly that share). Letters are Unicode letters (\p{L}; capitals \p{Lu});
 * links, mentions and custom emojis are skipped.
 */
export function isShouting(text: string, minLength: number, maxPercent: number): boolean {
  const slack = 100 - maxPercent;
  let letters = 0;
  let upper = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (c >= 97 && c <= 122) {
        if (c === 104 && skipHttpLink(text, i)) i = HTTP_LINK.lastIndex - 1;
        else {
          letters++;
          // Too many small letters for capitals to pass maxPercent even if every character left were one.
          if ((letters - upper) * 100 >= slack * (letters + text.length - i - 1)) return false;
        }
      } else if (c >= 65 && c <= 90) {
        if (c === 72 && skipHttpLink(text, i)) i = HTTP_LINK.lastIndex - 1;
        else {
          letters++;
          upper++;
        }
      } else if (c === 60) {
        DISCORD_TOKEN.lastIndex = i;
        if (DISCORD_TOKEN.test(text)) i = DISCORD_TOKEN.lastIndex - 1;
      } else if (c === 64) {
        MASS_MENTION.lastIndex = i;
        if (MASS_MENTION.test(text)) i = MASS_MENTION.lastIndex - 1;
      }
      continue;
    }
    let bits: number;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const pair = text.slice(i, i + 2);
      i++;
      bits = ASTRAL_LETTER.test(pair) ? LETTER | (ASTRAL_UPPER.test(pair) ? UPPER : 0) : 0;
    } else {
      bits = classes()[c] ?? 0;
    }
    if (bits & LETTER) {
      letters++;
      if (bits & UPPER) upper++;
      else if ((letters - upper) * 100 >= slack * (letters + text.length - i - 1)) return false;
    }
  }
  return letters >= minLength && upper * 100 > maxPercent * letters;
}

/** Whether an http(s) link starts at `i` (then HTTP_LINK.lastIndex is its end). */
function skipHttpLink(text: string, i: number): boolean {
  if ((text.charCodeAt(i + 1) | 32) !== 116 || (text.charCodeAt(i + 3) | 32) !== 112) return false;
  HTTP_LINK.lastIndex = i;
  return HTTP_LINK.test(text);
}
