// The invites and links rules: whether lowercased text holds a Discord invite, or a link whose host
// is not on the guild's allow list. Text is scanned with indexOf and char codes; the invite regex
// runs only when the text says `discord`.
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
//   its space missing).
import { isSpace, isWordUnit } from './characters';

const GAP = '[\\s\\u200b-\\u200d\\u2060]*';
/** An invite in lowercased text: `discord.gg/code`, `discord.com/invite/code`, `discordapp.com/invite/code`. */
const INVITE = new RegExp(`(?<![\\p{L}\\p{N}_-])discord(?:app)?${GAP}\\.${GAP}(?:com${GAP}[/\\\\]${GAP}invite|gg)${GAP}[/\\\\]${GAP}[\\p{L}\\p{N}-]`, 'u');
/** Whether lowercased text holds an invite. */
export const hasInvite = (lower: string) => lower.includes('discord') && INVITE.test(lower);

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
export function compileDomains(list: readonly string[]): ReadonlySet<string> {
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
export const mayHoldLink = (text: string) => text.includes('.') || text.includes('://');

/** A character of a host as written: letters, digits, marks, `-`, `_`, `.`. */
function isHostUnit(c: number): boolean {
  return c === 46 || c === 45 || c === 95 || isWordUnit(c);
}

/** Ends an http(s) link's authority (the host, its port and its user). */
const endsAuthority = (c: number) => c === 47 || c === 92 || c === 63 || c === 35 || c === 60 || c === 62 || c === 34 || c === 96 || isSpace(c);
/** Ends a link: whitespace and the brackets Discord wraps links in. */
const endsLink = (c: number) => c === 60 || c === 62 || isSpace(c);

/** Whether lowercased text holds an http(s) link or a bare domain whose host is not allowed. */
export function hasForeignLink(lower: string, allowed: ReadonlySet<string>, invitesJudgedApart: boolean): boolean {
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
