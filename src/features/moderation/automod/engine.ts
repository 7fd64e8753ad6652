// Auto moderation's rule engine: judges one guild message against the guild's rules. It runs on
// every message of every guild with auto moderation on, so it is built for that path: each
// settings list (blocked words, allowed domains) is compiled once and found again by identity;
// each rule's test (links.ts, words.ts, caps.ts, member-memory.ts) runs only when the text can
// match; exemptions are looked up only for the rules a message breaks; and the only memory is a
// small ring of times per member for the repeats and rate rules (member-memory.ts).
// No I/O, no clock of its own (the message carries its time), no discord.js.
// Deliberate limit: only the first 4,000 characters of a message are read (each rule's file
// names its own).
import { AUTOMOD_RULE_NAMES, type AutomodAction, type AutomodRuleName, type AutomodRules, type Duration } from '../../../shared/moderation';
import { isShouting } from './caps';
import { compileDomains, hasForeignLink, hasInvite, mayHoldLink } from './links';
import { DEFAULT_MAX_TRACKED_MEMBERS, MemberMemory, normalisedHash, recordRepeat, recordSent } from './member-memory';
import { compileWords, hasWholeWord } from './words';

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

/** Only this much of a message is read (Discord allows 4,000 characters with Nitro). */
export const MAX_SCANNED_CHARS = 4000;

/** Judges messages against auto moderation rules: one per process for the live path, shared by every guild; a dry run makes its own (dry-run.ts). */
export class AutomodEngine {
  private readonly memory: MemberMemory;
  private readonly wordPatterns = new ListCache(compileWords);
  private readonly allowedDomains = new ListCache(compileDomains);

  constructor(options: { maxTrackedMembers?: number } = {}) {
    this.memory = new MemberMemory(options.maxTrackedMembers ?? DEFAULT_MAX_TRACKED_MEMBERS);
  }

  /** Members remembered now (for the repeats and rate rules). */
  get trackedMembers(): number {
    return this.memory.size;
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
      const track = this.memory.track(message.guildId, message.authorId);
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
      if (hasInvite(lower) && !spares(invites, message)) return verdict('invites', invites);
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
    this.memory.forgetGuild(guildId);
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

// --- Compiled lists ----------------------------------------------------------------------------

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
