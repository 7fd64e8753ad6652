// The character classes auto moderation reads text by: letters, capitals, word characters,
// whitespace and the scripts written without spaces, one table for the whole BMP built once from
// the Unicode properties, so the rules test a character with one array read.

export const LETTER = 1;
export const UPPER = 2;
/** A letter, number or combining mark: what a whole word may not touch (`_` is markdown in Discord: `_word_`). */
const WORD = 4;
const SPACE = 8;
/** A character of a script written without spaces between words (Han, kana, Thai, ...): no whole-word edge. */
const UNSPACED = 16;
/** The scripts written without spaces between words. */
export const UNSPACED_SCRIPTS = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]+/gu;

let bmpClasses: Uint8Array | undefined;

/** The class bits of every BMP code unit, built once (about 15 ms) from the Unicode properties. */
export function classes(): Uint8Array {
  if (bmpClasses) return bmpClasses;
  const table = new Uint8Array(0x10000);
  let all = '';
  const chunk: number[] = [];
  for (let start = 0; start < 0x10000; start += 4096) {
    chunk.length = 0;
    for (let c = start; c < start + 4096; c++) chunk.push(c >= 0xd800 && c <= 0xdfff ? 0 : c);
    all += String.fromCharCode(...chunk);
  }
  const mark = (pattern: RegExp, bits: number) => {
    for (const match of all.matchAll(pattern)) for (let i = match.index ?? 0, end = i + match[0].length; i < end; i++) table[i] = (table[i] ?? 0) | bits;
  };
  mark(/\p{L}+/gu, LETTER | WORD);
  mark(/\p{Lu}+/gu, UPPER);
  mark(/[\p{N}\p{M}]+/gu, WORD);
  mark(/\s+/gu, SPACE);
  mark(UNSPACED_SCRIPTS, UNSPACED);
  bmpClasses = table;
  return table;
}

export const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || (c >= 128 && ((classes()[c] ?? 0) & SPACE) !== 0);

/** A letter, number or mark (ASCII fast; astral characters count as none). */
export function isWordUnit(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  // NaN (past either end of the text) is none either.
  return c < 0x10000 && ((classes()[c] ?? 0) & WORD) !== 0;
}

/** A character a whole word must be kept apart from its neighbours at: a word character of a spaced script. */
export function isWordEdgeUnit(c: number): boolean {
  if (c < 128) return isWordUnit(c);
  return c < 0x10000 && ((classes()[c] ?? 0) & (WORD | UNSPACED)) === WORD;
}

export const ASTRAL_LETTER = /^\p{L}$/u;
export const ASTRAL_UPPER = /^\p{Lu}$/u;
