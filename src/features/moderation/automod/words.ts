// The words rule: a guild's blocked words and phrases compiled into one regex, and a match that
// stands as a whole word.
//
// Deliberate limits: spelling games (l33t, `b a d`, zero-width joiners inside a word) and case
// pairs that Unicode does not fold one to one (`ß` vs `SS`) are not caught; in scripts written
// without spaces (Han, kana, Thai, ...) a listed word matches inside longer text, as there is no
// word edge to look for.
import { isWordEdgeUnit, isWordUnit, UNSPACED_SCRIPTS } from './characters';

interface TrieNode {
  next: Map<string, TrieNode>;
  /** A word ends here; `boundary`: it ends in a word character, so a word character may not follow. */
  end: boolean;
  boundary: boolean;
}

const WORD_CLASS = '[\\p{L}\\p{N}\\p{M}]';
const WORD_CHARACTER = new RegExp(`^${WORD_CLASS}$`, 'u');
const UNSPACED_CHARACTER = new RegExp(`^${UNSPACED_SCRIPTS.source}$`, 'u');
const escapeChar = (ch: string) => (/[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch);

/**
 * One regex for a word list: the lowercased words as a trie (`b(?:ad|oo)`), so a position is
 * rejected on its first character rather than tried against every word. Whitespace inside a
 * phrase matches any whitespace. The start of a whole word is checked by hasWholeWord: a
 * lookbehind at the front would run at every position.
 */
export function compileWords(words: readonly string[]): RegExp | null {
  const root: TrieNode = { next: new Map(), end: false, boundary: false };
  let any = false;
  for (const word of words) {
    const normalised = word.trim().toLowerCase().replace(/\s+/g, ' ');
    if (!normalised) continue;
    let node = root;
    let last = '';
    for (const ch of normalised) {
      let child = node.next.get(ch);
      if (!child) node.next.set(ch, (child = { next: new Map(), end: false, boundary: false }));
      node = child;
      last = ch;
    }
    node.end = true;
    node.boundary = WORD_CHARACTER.test(last) && !UNSPACED_CHARACTER.test(last);
    any = true;
  }
  return any ? new RegExp(trieSource(root), 'giu') : null;
}

function trieSource(node: TrieNode): string {
  const branches: string[] = [];
  for (const [ch, child] of node.next) branches.push((ch === ' ' ? '\\s+' : escapeChar(ch)) + trieSource(child));
  if (node.end) branches.push(node.boundary ? `(?!${WORD_CLASS})` : '');
  return branches.length === 1 ? (branches[0] ?? '') : `(?:${branches.join('|')})`;
}

/**
 * A match of the word pattern that does not start inside a word (`ass` is not in `class`). Words
 * of scripts written without spaces (`中文` in `我会说中文`) match anywhere: they have no edges to find.
 */
export function hasWholeWord(pattern: RegExp, lower: string): boolean {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
    const at = match.index;
    if (at === 0 || !isWordEdgeUnit(lower.charCodeAt(at)) || !isWordUnit(lower.charCodeAt(at - 1))) return true;
    pattern.lastIndex = at + 1;
  }
  return false;
}
