// The words rule on its own: a list compiled to one pattern, matched as whole words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileWords, hasWholeWord } from './words';

/** Whether the list catches the text, as the engine asks it (text lowercased). */
function catches(list: readonly string[], text: string): boolean {
  const pattern = compileWords(list);
  return pattern !== null && hasWholeWord(pattern, text.toLowerCase());
}

test('compileWords: an empty or blank list compiles to nothing', () => {
  assert.equal(compileWords([]), null);
  assert.equal(compileWords(['', '   ', '\n']), null);
  assert.ok(compileWords(['', 'word']) instanceof RegExp);
});

test('a listed word is caught as a whole word at either end of the text and between punctuation', () => {
  for (const text of ['bad', 'so bad', 'bad!', '(bad)', '_bad_', '**BAD**', 'Bad news', 'my_bad']) assert.equal(catches(['bad'], text), true, text);
});

test('a listed word inside a longer word, or a near spelling, is not caught', () => {
  for (const text of ['badge', 'abad', 'bad1', '1bad', 'b a d', 'b4d', 'badé', '']) assert.equal(catches(['bad'], text), false, text);
  // A later whole occurrence is still found after an embedded one.
  assert.equal(catches(['ass'], 'class ass'), true);
});

test('phrases match across any run of whitespace, words of a list each on their own', () => {
  assert.equal(catches(['bad phrase'], 'a bad \n  phrase here'), true);
  assert.equal(catches(['bad phrase'], 'badphrase'), false);
  assert.equal(catches(['one', 'two'], 'number two'), true);
  assert.equal(catches(['one', 'two'], 'three'), false);
});

test('regex characters are taken literally; a word ending in punctuation needs no edge after it', () => {
  assert.equal(catches(['a.b'], 'a.b'), true);
  assert.equal(catches(['a.b'], 'axb'), false);
  assert.equal(catches(['(.*)'], 'x (.*) y'), true);
  assert.equal(catches(['(.*)'], 'anything'), false);
  assert.equal(catches(['c++'], 'c++ and c'), true);
  assert.equal(catches(['c++'], 'c'), false);
});

test('case is folded, Unicode included; scripts without spaces match inside longer text', () => {
  assert.equal(catches(['ПЛОХО'], 'это плохо'), true);
  assert.equal(catches(['плохо'], 'плохой'), false);
  assert.equal(catches(['naïve'], 'NAÏVE'), true);
  assert.equal(catches(['中文'], '我会说中文'), true);
  assert.equal(catches(['ไทย'], 'ภาษาไทยดี'), true);
});
