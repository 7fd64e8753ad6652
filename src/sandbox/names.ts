import type { SeededRandom } from './random';

const FIRST = [
  'alex',
  'sam',
  'jordan',
  'taylor',
  'casey',
  'riley',
  'morgan',
  'jamie',
  'avery',
  'quinn',
  'skyler',
  'drew',
  'harper',
  'rowan',
  'emery',
  'finley',
  'kai',
  'nova',
  'luna',
  'milo',
  'ezra',
  'ivy',
  'leo',
  'zoe',
  'nina',
  'omar',
  'yuki',
  'mateo',
  'lena',
  'priya',
  'arjun',
  'sofia',
  'liam',
  'chloe',
  'noah',
  'mia',
  'aiden',
  'ella',
  'felix',
  'hana',
  'ines',
  'jonas',
  'kira',
  'lucas',
  'maya',
  'nico',
  'olga',
  'pablo',
  'rosa',
  'sven',
  'tara',
];
const NOUNS = [
  'fox',
  'owl',
  'pixel',
  'byte',
  'storm',
  'river',
  'comet',
  'maple',
  'ember',
  'frost',
  'echo',
  'drift',
  'spark',
  'tide',
  'cedar',
  'orbit',
  'raven',
  'lynx',
  'sage',
  'nebula',
  'willow',
  'quartz',
  'koi',
  'panda',
  'otter',
];
const STYLES = ['plain', 'underscore', 'digits', 'noun', 'dot'] as const;

/** A plausible, lowercase Discord username plus a display name, e.g. `luna_fox` / `Luna`. */
export function makeName(rng: SeededRandom): { username: string; globalName: string } {
  const first = rng.pick(FIRST);
  const noun = rng.pick(NOUNS);
  const display = first.charAt(0).toUpperCase() + first.slice(1);
  switch (rng.pick(STYLES)) {
    case 'plain':
      return { username: `${first}${rng.int(1, 99)}`, globalName: display };
    case 'underscore':
      return { username: `${first}_${noun}`, globalName: `${display} ${noun.charAt(0).toUpperCase()}${noun.slice(1)}` };
    case 'digits':
      return { username: `${first}${noun}${rng.int(100, 9999)}`, globalName: display };
    case 'noun':
      return { username: `the${noun}${rng.int(1, 999)}`, globalName: `${noun.charAt(0).toUpperCase()}${noun.slice(1)}` };
    case 'dot':
      return { username: `${first}.${noun}`, globalName: display };
  }
}

/** Lines of small talk for the seeded chat history. */
export const CHAT_LINES = [
  'hey everyone!',
  'good morning :)',
  'anyone up for a game tonight?',
  'just finished the new episode, no spoilers',
  'welcome to the new folks',
  'lol that is so true',
  'does anyone know how to set up the bot?',
  'brb coffee',
  'what is everyone working on?',
  'check out #announcements',
  'gg last night',
  'that meme is gold',
  'who is streaming later?',
  'I think the event starts at 8',
  'thanks for the help!',
  'same here',
  'has anyone tried the new update?',
  'the server looks great',
  'happy friday!',
  'see you all tomorrow',
];
