// Auto moderation's rule engine: judges one guild message against the guild's rules. It runs on
// every message of every guild with auto moderation on, so it is built for that path: each
// settings list (blocked words, allowed domains) is compiled once and found again by identity;
// text is scanned with indexOf and char codes (one regex for the words, one for invites, run only
// when the text can match); exemptions are looked up only for the rules a message breaks; and the
// only memory is a small ring of times per member for the repeats and rate rules, capped, where
// the members who have not posted again for longest make room first.
// No I/O, no clock of its own (the message carries its time), no discord.js.
//
// Deliberate limits (each way out would cost false positives or work on every message):
// - invites written other than `discord.gg/code`, `discord(app).com/invite/code` (any subdomain,
//   any scheme or none, any case, spaces or zero-width spaces around the dot and slashes) are
//   not caught: `discord(.)gg`, `discord dot gg`, look-alike letters, third-party redirectors
//   (dsc.gg, ...: the links rule sees those);
// - links not caught: bare hosts whose last label is not a known TLD (BARE_TLDS; after http(s)://
//   any host counts), bare IP addresses, e-mail addresses, full-width dots (`example。com`),
//   schemes other than http(s) without a domain (`steam://x`); a domain inside a link's path or
//   query is part of that link, not a link of its own. Hosts compare as written, lowercased:
//   `bücher.de` on the allow list does not allow `xn--bcher-kva.de`. And caught though perhaps
//   not meant: text that reads as a bare domain (`main.py`, `notes.md`: real TLDs; `ok.so` with
//   its space missing);
// - words: spelling games (l33t, `b a d`, zero-width joiners inside a word) and case pairs that
//   Unicode does not fold one to one (`ß` vs `SS`) are not caught; in scripts written without
//   spaces (Han, kana, Thai, ...) a listed word matches inside longer text, as there is no word
//   edge to look for;
// - caps: bare domains count as text (http(s) links, mentions and custom emojis do not);
// - only the first 4,000 characters of a message are read.
import { AUTOMOD_RULE_NAMES, type AutomodAction, type AutomodRuleName, type AutomodRules, type Duration } from '../../shared/moderation';

/** A guild message as the engine sees it. */
export interface AutomodMessage {
  guildId: string;
  channelId: string;
  authorId: string;
  content: string;
  /** The author's roles in the guild. */
  roleIds: readonly string[];
  /** The author is the guild's owner or has Administrator or Manage Server guild-wide (spared unless the guild includes staff). */
  staff: boolean;
  /** Distinct users and roles mentioned, plus one when the message tried @everyone or @here. */
  mentionCount: number;
  /** The message tried @everyone or @here (whether or not Discord let it ping). */
  everyone: boolean;
  /** When it was sent, in epoch ms from the product's clock. */
  at: number;
}

/** The rule a message broke and what to do about it (the message is deleted in every case). */
export interface AutomodVerdict {
  rule: AutomodRuleName;
  /** The rule's name as a person reads it: the reason of the case. */
  reason: string;
  action: AutomodAction;
  /** The timeout's length; null unless the action is a timeout. */
  duration: Duration | null;
}

/** What a guild set beyond its rules. */
export interface AutomodOptions {
  /** Check staff (the owner, Administrator, Manage Server) too; off, every rule spares them. */
  includeStaff: boolean;
}

/** The default: staff are spared. */
export const SPARE_STAFF: AutomodOptions = { includeStaff: false };

/**
 * The order rules are judged in; the first one broken wins. The dashboard's order, which runs from
 * the most specific and harmful (an invite is also a link; a mass ping reaches everyone) to the
 * mildest (capitals).
 */
export const AUTOMOD_RULE_ORDER: readonly AutomodRuleName[] = ['invites', 'links', 'mentions', 'repeats', 'rate', 'words', 'caps'];

/** How close together identical messages must come to count as repeats: all of them within a minute. */
export const REPEAT_WINDOW_MS = 60_000;
/** Only this much of a message is read (Discord allows 4,000 characters with Nitro). */
export const MAX_SCANNED_CHARS = 4000;
/** Members whose recent messages are remembered, at most, by default. */
export const DEFAULT_MAX_TRACKED_MEMBERS = 50_000;

/** What is remembered of one member of one guild. Rings of times: slot `count % length` is the oldest. */
interface MemberTrack {
  guildId: string;
  authorId: string;
  /** The guild's map this record is in; null once forgotten (the record waits in `free`). */
  home: Map<string, MemberTrack> | null;
  /** Active since the eviction hand last passed (a second chance). */
  recent: boolean;
  /** The times of the member's latest messages (maxMessages + 1 of them); null while rate does not watch. */
  sent: number[] | null;
  sentCount: number;
  /** The hash of the latest non-empty normalised content, and the times of the run of messages with it (maxRepeats + 1 of them). */
  lastHash: number;
  run: number[] | null;
  runCount: number;
}

/** Judges messages against auto moderation rules; one per process, shared by every guild. */
export class AutomodEngine {
  /** Records by guild, then member: two lookups of the ids as they come, no key string to build and hash. */
  private readonly guilds = new Map<string, Map<string, MemberTrack>>();
  /**
   * Every record, in a ring the eviction hand sweeps (CLOCK): a record active since the hand last
   * passed is spared once; the first one that was not is replaced. So a member who keeps talking
   * stays, one-off posters go first, and marking a member active is one write to its own record.
   */
  private readonly slots: MemberTrack[] = [];
  private hand = 0;
  /** Records of forgotten guilds, reused first. */
  private readonly free: MemberTrack[] = [];
  private tracked = 0;
  private readonly maxTracked: number;
  private readonly wordPatterns = new ListCache(compileWords);
  private readonly allowedDomains = new ListCache(compileDomains);

  constructor(options: { maxTrackedMembers?: number } = {}) {
    const max = options.maxTrackedMembers ?? DEFAULT_MAX_TRACKED_MEMBERS;
    this.maxTracked = Number.isFinite(max) ? Math.max(1, Math.floor(max)) : DEFAULT_MAX_TRACKED_MEMBERS;
  }

  /** Members remembered now (for the repeats and rate rules). */
  get trackedMembers(): number {
    return this.tracked;
  }

  /**
   * The first rule (in AUTOMOD_RULE_ORDER) the message breaks, or null. Every message counts
   * towards repeats and rate, including one an earlier rule catches: a flood of invites is a flood.
   * Staff's messages, unless the guild includes them, are not judged or counted at all.
   */
  check(message: AutomodMessage, rules: AutomodRules, options: AutomodOptions = SPARE_STAFF): AutomodVerdict | null {
    if (message.staff && !options.includeStaff) return null;
    const raw = typeof message.content === 'string' ? message.content : '';
    const content = raw.length > MAX_SCANNED_CHARS ? raw.slice(0, MAX_SCANNED_CHARS) : raw;
    let lower: string | undefined;

    // Repeats and rate remember every message they watch, so their exemptions come first: a message
    // they spare (an exempt channel, a moderator) is not counted at all.
    const watchRepeats = rules.repeats.enabled && !spares(rules.repeats, message);
    const watchRate = rules.rate.enabled && !spares(rules.rate, message);
    let repeated = false;
    let flooded = false;
    if (watchRepeats || watchRate) {
      const track = this.track(message.guildId, message.authorId);
      if (watchRepeats) {
        lower = content.toLowerCase();
        repeated = recordRepeat(track, normalisedHash(lower), message.at, rules.repeats.maxRepeats);
      } else {
        track.run = null;
      }
      if (watchRate) flooded = recordSent(track, message.at, rules.rate.maxMessages + 1, rules.rate.perSeconds * 1000);
      else track.sent = null;
    }

    // Exemptions of the rules below are looked up only once a rule is broken: most messages break none.
    const invites = rules.invites;
    if (invites.enabled) {
      lower ??= content.toLowerCase();
      if (lower.includes('discord') && INVITE.test(lower) && !spares(invites, message)) return verdict('invites', invites);
    }
    const links = rules.links;
    if (links.enabled && mayHoldLink(content)) {
      lower ??= content.toLowerCase();
      if (hasForeignLink(lower, this.allowedDomains.get(links.allowedDomains), invites.enabled) && !spares(links, message)) return verdict('links', links);
    }
    const mentions = rules.mentions;
    if (mentions.enabled && (message.everyone || message.mentionCount > mentions.maxMentions) && !spares(mentions, message))
      return verdict('mentions', mentions);
    if (repeated) return verdict('repeats', rules.repeats);
    if (flooded) return verdict('rate', rules.rate);
    const words = rules.words;
    if (words.enabled && words.words.length > 0) {
      const pattern = this.wordPatterns.get(words.words);
      lower ??= content.toLowerCase();
      if (pattern && hasWholeWord(pattern, lower) && !spares(words, message)) return verdict('words', words);
    }
    const caps = rules.caps;
    if (caps.enabled && content.length >= caps.minLength && isShouting(content, caps.minLength, caps.maxPercent) && !spares(caps, message))
      return verdict('caps', caps);
    return null;
  }

  /** Forgets what was remembered of a guild's members (the bot left it, or its rules changed). */
  forgetGuild(guildId: string): void {
    const members = this.guilds.get(guildId);
    if (!members) return;
    this.guilds.delete(guildId);
    for (const track of members.values()) {
      track.home = null;
      track.recent = false;
      this.free.push(track);
    }
    this.tracked -= members.size;
  }

  /** The member's record, marked active; made when missing, in a free slot or in place of an inactive member's. */
  private track(guildId: string, authorId: string): MemberTrack {
    const found = this.guilds.get(guildId)?.get(authorId);
    if (found) {
      found.recent = true;
      return found;
    }
    let track = this.free.pop() ?? (this.slots.length < this.maxTracked ? undefined : this.evict());
    // Looked up after the eviction, which drops a guild's map once its last member goes.
    let members = this.guilds.get(guildId);
    if (!members) {
      members = new Map();
      this.guilds.set(guildId, members);
    }
    if (track) {
      // A reused record keeps its rings (their counts restart): a full engine allocates nothing.
      track.guildId = guildId;
      track.authorId = authorId;
      track.home = members;
      track.sentCount = 0;
      track.lastHash = NO_TEXT;
      track.runCount = 0;
    } else {
      track = { guildId, authorId, home: members, recent: false, sent: null, sentCount: 0, lastHash: NO_TEXT, run: null, runCount: 0 };
      this.slots.push(track);
    }
    members.set(authorId, track);
    this.tracked += 1;
    return track;
  }

  /** Sweeps the ring to the first record not active since the last sweep and takes it out of its guild. */
  private evict(): MemberTrack {
    for (;;) {
      const track = this.slots[this.hand];
      this.hand = (this.hand + 1) % this.slots.length;
      if (!track) continue;
      if (track.recent) {
        track.recent = false;
        continue;
      }
      // Free records are all in use when the ring is swept, so every record here is in a guild's map.
      const home = track.home;
      if (home) {
        home.delete(track.authorId);
        if (home.size === 0 && this.guilds.get(track.guildId) === home) this.guilds.delete(track.guildId);
        this.tracked -= 1;
      }
      track.recent = false;
      return track;
    }
  }
}

function verdict(rule: AutomodRuleName, settings: { action: AutomodAction; duration: Duration | null }): AutomodVerdict {
  return { rule, reason: AUTOMOD_RULE_NAMES[rule], action: settings.action, duration: settings.action === 'timeout' ? settings.duration : null };
}

/** Whether a rule spares this message: sent in one of its exempt channels, or by a member with one of its exempt roles. */
function spares(rule: { exemptRoleIds: readonly string[]; exemptChannelIds: readonly string[] }, message: AutomodMessage): boolean {
  if (rule.exemptChannelIds.length > 0 && rule.exemptChannelIds.includes(message.channelId)) return true;
  const exempt = rule.exemptRoleIds;
  if (exempt.length === 0) return false;
  for (const roleId of message.roleIds) if (exempt.includes(roleId)) return true;
  return false;
}

// --- Repeats and rate --------------------------------------------------------------------------

const NO_TEXT = -1;

/** A packed array of `size` numbers (`new Array(size)` would be a holey one, slower to read). */
function zeros(size: number): number[] {
  const ring: number[] = [];
  for (let i = 0; i < size; i++) ring.push(0);
  return ring;
}

/** Records a message's time; true when `size` messages (this one the last) came within `windowMs`. */
function recordSent(track: MemberTrack, at: number, size: number, windowMs: number): boolean {
  if (track.sent === null || track.sent.length !== size) {
    track.sent = zeros(size);
    track.sentCount = 0;
  }
  track.sent[track.sentCount % size] = at;
  track.sentCount += 1;
  return track.sentCount >= size && at - (track.sent[track.sentCount % size] ?? -Infinity) < windowMs;
}

/**
 * Records a message in the member's run of identical ones; true when `maxRepeats` of them came
 * before it within the window (the limit allows that many: this one is the one too many).
 */
function recordRepeat(track: MemberTrack, hash: number, at: number, maxRepeats: number): boolean {
  // A message without text (an image, a sticker) neither repeats nor breaks a run.
  if (hash === NO_TEXT) return false;
  const size = maxRepeats + 1;
  if (track.run === null || track.run.length !== size) {
    track.run = zeros(size);
    track.runCount = 0;
  }
  if (hash !== track.lastHash) {
    track.lastHash = hash;
    track.runCount = 0;
  }
  track.run[track.runCount % size] = at;
  track.runCount += 1;
  return track.runCount >= size && at - (track.run[track.runCount % size] ?? -Infinity) < REPEAT_WINDOW_MS;
}

/**
 * A 53-bit hash of lowercased text as trimmed, with whitespace runs made one space, without
 * building that string (two 32-bit lanes: FNV-1a and a multiply-add); NO_TEXT when nothing is left.
 * Remembering a hash, not the text, keeps each member's record a few bytes; two different
 * messages in a row colliding is about a 1 in 2^53 chance.
 */
function normalisedHash(lower: string): number {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x2545f491;
  // 0: nothing yet; 1: in text; 2: whitespace after text (one space, if text follows).
  let state = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if ((c <= 32 || c >= 128) && isSpace(c)) {
      if (state === 1) state = 2;
      continue;
    }
    if (state === 2) {
      h1 = Math.imul(h1 ^ 32, 16777619);
      h2 = (Math.imul(h2, 31) + 32) | 0;
    }
    state = 1;
    h1 = Math.imul(h1 ^ c, 16777619);
    h2 = (Math.imul(h2, 31) + c) | 0;
  }
  if (state === 0) return NO_TEXT;
  return 4294967296 * ((h2 >>> 0) & 0x1fffff) + (h1 >>> 0);
}

// --- Characters --------------------------------------------------------------------------------

const LETTER = 1;
const UPPER = 2;
/** A letter, number or combining mark: what a whole word may not touch (`_` is markdown in Discord: `_word_`). */
const WORD = 4;
const SPACE = 8;
/** A character of a script written without spaces between words (Han, kana, Thai, ...): no whole-word edge. */
const UNSPACED = 16;
let bmpClasses: Uint8Array | undefined;

/** The class bits of every BMP code unit, built once (about 15 ms) from the Unicode properties. */
function classes(): Uint8Array {
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

const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || (c >= 128 && ((classes()[c] ?? 0) & SPACE) !== 0);

/** A letter, number or mark (ASCII fast; astral characters count as none). */
function isWordUnit(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  // NaN (past either end of the text) is none either.
  return c < 0x10000 && ((classes()[c] ?? 0) & WORD) !== 0;
}

const UNSPACED_SCRIPTS = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]+/gu;

/** A character a whole word must be kept apart from its neighbours at: a word character of a spaced script. */
function isWordEdgeUnit(c: number): boolean {
  if (c < 128) return isWordUnit(c);
  return c < 0x10000 && ((classes()[c] ?? 0) & (WORD | UNSPACED)) === WORD;
}

const ASTRAL_LETTER = /^\p{L}$/u;
const ASTRAL_UPPER = /^\p{Lu}$/u;

// --- Invites and links -------------------------------------------------------------------------

const GAP = '[\\s\\u200b-\\u200d\\u2060]*';
/** An invite in lowercased text: `discord.gg/code`, `discord.com/invite/code`, `discordapp.com/invite/code`. */
const INVITE = new RegExp(`(?<![\\p{L}\\p{N}_-])discord(?:app)?${GAP}\\.${GAP}(?:com${GAP}[/\\\\]${GAP}invite|gg)${GAP}[/\\\\]${GAP}[\\p{L}\\p{N}-]`, 'u');
const INVITE_PATH = /[/\\]invite[/\\]/y;

/** Country codes and the generic TLDs links are commonly (and abusively) made with; a bare host must end in one. */
const BARE_TLDS = new Set(
  (
    'ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo bq br bs bt bw by bz ca cc cd cf cg ch ci ck cl cm cn co ' +
    'cr cu cv cw cx cy cz ' +
    'de dj dk dm do dz ec ee eg er es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im ' +
    'in io iq ir is it ' +
    'je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz ' +
    'na nc ne nf ng ni nl no np nr nu nz ' +
    'om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj ' +
    'tk tl tm tn to tr tt tv tw tz ' +
    'ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw ' +
    'com net org info biz edu gov mil int name pro mobi app dev page xyz top site online website shop store link click live life fun icu buzz club ' +
    'vip win bid loan work tech ' +
    'space art blog news cloud digital email host ink ltd rocks services social stream support team tools trade wiki zip mov gift gifts game games ' +
    'gold money cash bet casino ' +
    'poker sex porn xxx adult tube video media download men moe lol wtf gdn bar rest cfd sbs quest monster cyou cam best today world network ' +
    'solutions agency company group ' +
    'global studio design codes software systems technology city land market promo sale deals discount free center chat community events fans forum ' +
    'gallery photo photos ' +
    'pics plus red blue pink black guru ninja run science party date review racing accountant cricket faith kim country asia mom tokyo nyc london berlin ' +
    'рф укр срб бел қаз мкд мон 中国 中國 香港 台灣 台湾 한국'
  ).split(' '),
);

/** The allowed hosts of a list as admins type them (`Example.com`, `*.example.com`, `https://example.com/`). */
function compileDomains(list: readonly string[]): ReadonlySet<string> {
  const hosts = new Set<string>();
  for (const entry of list) {
    const host = entry
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
      .replace(/[/?#\\].*$/, '')
      .replace(/:\d*$/, '')
      .replace(/^(?:\*?\.)+/, '')
      .replace(/\.+$/, '');
    if (host) hosts.add(host);
  }
  return hosts;
}

/** The host or one of its parents is allowed (`a.example.com` by `example.com`; not `evil-example.com`). */
function isAllowedHost(host: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.size === 0) return false;
  for (let rest = host; ;) {
    if (allowed.has(rest)) return true;
    const dot = rest.indexOf('.');
    if (dot < 0) return false;
    rest = rest.slice(dot + 1);
  }
}

/** An invite link, judged by the invites rule while that rule is on. */
function isInviteLink(host: string, lower: string, pathStart: number): boolean {
  if (host === 'discord.gg' || host.endsWith('.discord.gg')) return true;
  if (!(host === 'discord.com' || host === 'discordapp.com' || host.endsWith('.discord.com') || host.endsWith('.discordapp.com'))) return false;
  INVITE_PATH.lastIndex = pathStart;
  return INVITE_PATH.test(lower);
}

/** A link needs a `://` or a dot: most chat lines have neither and skip the scan. */
const mayHoldLink = (text: string) => text.includes('.') || text.includes('://');

/** A character of a host as written: letters, digits, marks, `-`, `_`, `.`. */
function isHostUnit(c: number): boolean {
  return c === 46 || c === 45 || c === 95 || isWordUnit(c);
}

/** Ends an http(s) link's authority (the host, its port and its user). */
const endsAuthority = (c: number) => c === 47 || c === 92 || c === 63 || c === 35 || c === 60 || c === 62 || c === 34 || c === 96 || isSpace(c);
/** Ends a link: whitespace and the brackets Discord wraps links in. */
const endsLink = (c: number) => c === 60 || c === 62 || isSpace(c);

/** Whether lowercased text holds an http(s) link or a bare domain whose host is not allowed. */
function hasForeignLink(lower: string, allowed: ReadonlySet<string>, invitesJudgedApart: boolean): boolean {
  const n = lower.length;
  let i: number;
  let scheme = lower.indexOf('://');
  let dot = lower.indexOf('.');
  while (scheme >= 0 || dot >= 0) {
    if (scheme >= 0 && (dot < 0 || scheme < dot)) {
      // A scheme: only http(s) links take any host; `ftp://evil.io` is left to the bare scan.
      i = scheme + 3;
      if (lower.startsWith('http', scheme - 4) || lower.startsWith('https', scheme - 5)) {
        let end = i;
        while (end < n && !endsAuthority(lower.charCodeAt(end))) end++;
        const user = lower.lastIndexOf('@', end - 1);
        const host = trimHost(lower.slice(user >= i ? user + 1 : i, end), true);
        if (host && !(invitesJudgedApart && isInviteLink(host, lower, end)) && !isAllowedHost(host, allowed)) return true;
        i = end;
        while (i < n && !endsLink(lower.charCodeAt(i))) i++;
      }
    } else {
      // A dot: a bare host when host characters surround it and it ends in a known TLD.
      i = dot + 1;
      if (dot > 0 && isHostUnit(lower.charCodeAt(dot - 1)) && isHostUnit(lower.charCodeAt(dot + 1))) {
        let start = dot - 1;
        while (start > 0 && isHostUnit(lower.charCodeAt(start - 1))) start--;
        let end = dot + 1;
        while (end < n && isHostUnit(lower.charCodeAt(end))) end++;
        const host = trimHost(lower.slice(start, end), false);
        // `me@example.com` is an address, not a link.
        if (
          host &&
          lower.charCodeAt(start - 1) !== 64 &&
          isBareDomain(host) &&
          !(invitesJudgedApart && isInviteLink(host, lower, end)) &&
          !isAllowedHost(host, allowed)
        )
          return true;
        i = end;
        // A path (or port) belongs to this link: a domain in it is not another link.
        const next = lower.charCodeAt(end);
        if (next === 47 || next === 92 || next === 63 || next === 35 || next === 58) while (i < n && !endsLink(lower.charCodeAt(i))) i++;
      }
    }
    if (scheme >= 0 && scheme < i) scheme = lower.indexOf('://', i);
    if (dot >= 0 && dot < i) dot = lower.indexOf('.', i);
  }
  return false;
}

/** A host without its port and the punctuation around it (`evil.io)` from `(https://evil.io)`). */
function trimHost(text: string, withPort: boolean): string {
  let host = text;
  if (withPort && !host.startsWith('[')) {
    const colon = host.indexOf(':');
    if (colon >= 0) host = host.slice(0, colon);
  }
  let start = 0;
  let end = host.length;
  while (start < end && isEdgePunctuation(host.charCodeAt(start))) start++;
  while (end > start && isEdgePunctuation(host.charCodeAt(end - 1))) end--;
  return start === 0 && end === host.length ? host : host.slice(start, end);
}

/** . - _ ( ) [ ] { } ' " * | ~ , ; ! (but not the brackets of an IPv6 literal, which stay). */
const isEdgePunctuation = (c: number) =>
  c === 46 ||
  c === 45 ||
  c === 95 ||
  c === 40 ||
  c === 41 ||
  c === 123 ||
  c === 125 ||
  c === 39 ||
  c === 34 ||
  c === 42 ||
  c === 124 ||
  c === 126 ||
  c === 44 ||
  c === 59 ||
  c === 33;

/** Labels that are not empty, ending in a known TLD (or a punycode one). */
function isBareDomain(host: string): boolean {
  const lastDot = host.lastIndexOf('.');
  if (lastDot <= 0 || host.includes('..')) return false;
  const tld = host.slice(lastDot + 1);
  return BARE_TLDS.has(tld) || (tld.startsWith('xn--') && tld.length > 4);
}

// --- Words -------------------------------------------------------------------------------------

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
function compileWords(words: readonly string[]): RegExp | null {
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
function hasWholeWord(pattern: RegExp, lower: string): boolean {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
    const at = match.index;
    if (at === 0 || !isWordEdgeUnit(lower.charCodeAt(at)) || !isWordUnit(lower.charCodeAt(at - 1))) return true;
    pattern.lastIndex = at + 1;
  }
  return false;
}

// --- Capitals ----------------------------------------------------------------------------------

/** A Discord mention, channel, custom emoji, timestamp or command token: not text. */
const DISCORD_TOKEN = /<(?:@[!&]?\d{1,20}|#\d{1,20}|a?:\w{1,32}:\d{1,20}|t:-?\d{1,20}(?::[a-zA-Z])?|\/[^<>:\s][^<>:]{0,99}:\d{1,20}|id:\w{1,20})>/y;
const HTTP_LINK = /https?:\/\/[^\s<>]*/iy;
const MASS_MENTION = /@(?:everyone|here)/y;

/**
 * Whether at least `minLength` letters are counted and capitals are more than `maxPercent` of them
 * (the limit allows exactly that share). Letters are Unicode letters (\p{L}; capitals \p{Lu});
 * links, mentions and custom emojis are skipped.
 */
function isShouting(text: string, minLength: number, maxPercent: number): boolean {
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

// --- Caches ------------------------------------------------------------------------------------

/** Contents kept at most (for lists re-read as new arrays with the same words). */
const MAX_CACHED_LISTS = 1024;

/**
 * What a settings list compiles to, found by the list's identity (settings are cached, so the same
 * array comes with every message), then by its contents; compiled only when both miss.
 */
class ListCache<T> {
  private readonly byList = new WeakMap<readonly string[], T>();
  private readonly byContents = new Map<string, T>();

  constructor(private readonly compile: (list: readonly string[]) => T) {}

  get(list: readonly string[]): T {
    const known = this.byList.get(list);
    if (known !== undefined) return known;
    const key = list.join('\u0000');
    let compiled = this.byContents.get(key);
    if (compiled === undefined) {
      compiled = this.compile(list);
      if (this.byContents.size >= MAX_CACHED_LISTS) {
        const oldest = this.byContents.keys().next();
        if (!oldest.done) this.byContents.delete(oldest.value);
      }
      this.byContents.set(key, compiled);
    }
    this.byList.set(list, compiled);
    return compiled;
  }
}
