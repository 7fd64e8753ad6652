// The rules of the channel tools, apart from Discord: which messages a purge takes (its filters and
// Discord's 14-day cut), and what lock remembers of @everyone's Send Messages so unlock puts it back.
import { PURGE_LIMITS, type PurgeFilters } from '../../shared/channel-tools';

/** A message of the channel as a purge weighs it. */
export interface PurgeCandidate {
  id: string;
  authorId: string;
  authorBot: boolean;
  content: string;
  /** When it was posted (ms since the epoch; its id's time). */
  createdAt: number;
}

/** What a purge does: the ids to delete, and how many matching messages were too old for Discord's bulk delete. */
export interface PurgePlan {
  ids: string[];
  skipped: number;
}

/** A link as a member posts one: a web address or a Discord invite without its scheme. */
const LINK = /\bhttps?:\/\/\S|\bdiscord(?:\.gg|(?:app)?\.com\/invite)\/\S/i;

/** Whether a message passes every filter given (no filter: every message does). */
export function matchesPurge(message: PurgeCandidate, filters: PurgeFilters): boolean {
  if (filters.userId && message.authorId !== filters.userId) return false;
  if (filters.bots && !message.authorBot) return false;
  if (filters.contains && !message.content.toLowerCase().includes(filters.contains.toLowerCase())) return false;
  if (filters.links && !LINK.test(message.content)) return false;
  return true;
}

/**
 * The newest `count` messages that pass the filters (the channel's latest, newest first), split at
 * Discord's cut: those posted 14 days ago or more are not deleted but counted as skipped.
 */
export function planPurge(messages: readonly PurgeCandidate[], filters: PurgeFilters, count: number, now: number): PurgePlan {
  const newestFirst = [...messages].sort((a, b) => b.createdAt - a.createdAt || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  const matching = newestFirst.filter((message) => matchesPurge(message, filters)).slice(0, count);
  const cut = now - PURGE_LIMITS.maxAgeMs;
  const ids = matching.filter((message) => message.createdAt > cut).map((message) => message.id);
  return { ids, skipped: matching.length - ids.length };
}

/** @everyone's Send Messages in a channel's overwrite: allowed, denied, or left to the server's roles. */
export type SendState = 'allow' | 'deny' | 'inherit';

/** A channel's overwrite of @everyone as bits, or null when the channel has none. */
export interface OverwriteBits {
  allow: bigint;
  deny: bigint;
}

/** What lock remembers so unlock can put it back: whether the overwrite existed, and its Send Messages. */
export interface LockMemory {
  existed: boolean;
  sendMessages: SendState;
}

/** The Send Messages bit (discord.js's PermissionFlagsBits.SendMessages, 1 << 11). */
export const SEND_MESSAGES = 1n << 11n;

/** Send Messages in an overwrite. */
export function sendState(overwrite: OverwriteBits | null): SendState {
  if (!overwrite) return 'inherit';
  if ((overwrite.deny & SEND_MESSAGES) !== 0n) return 'deny';
  if ((overwrite.allow & SEND_MESSAGES) !== 0n) return 'allow';
  return 'inherit';
}

/** A channel is locked when @everyone's Send Messages is denied in it. */
export const isLocked = (overwrite: OverwriteBits | null) => sendState(overwrite) === 'deny';

/** What lock remembers of the overwrite it is about to change. */
export const lockMemory = (overwrite: OverwriteBits | null): LockMemory => ({ existed: overwrite !== null, sendMessages: sendState(overwrite) });

/** Reads a remembered lock back from a case's details; null when they hold none. */
export function readLockMemory(details: Record<string, unknown> | null): LockMemory | null {
  const previous = details?.previous;
  if (!previous || typeof previous !== 'object') return null;
  const { existed, sendMessages } = previous as Record<string, unknown>;
  if (typeof existed !== 'boolean' || (sendMessages !== 'allow' && sendMessages !== 'deny' && sendMessages !== 'inherit')) return null;
  return { existed, sendMessages };
}

/**
 * What unlock does to the overwrite: put Send Messages back as it was, or remove the overwrite when
 * lock made it and nothing else has been set in it since. Without a memory (locked by hand in
 * Discord), Send Messages goes back to the server's roles.
 */
export function unlockPlan(current: OverwriteBits | null, memory: LockMemory | null): { remove: true } | { remove: false; sendMessages: SendState } {
  if (!memory) return { remove: false, sendMessages: 'inherit' };
  const others = current ? (current.allow | current.deny) & ~SEND_MESSAGES : 0n;
  if (!memory.existed && others === 0n) return { remove: true };
  return { remove: false, sendMessages: memory.sendMessages };
}
