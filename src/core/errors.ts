// Errors of the domain: what went wrong, in words a server admin or member understands, with no
// HTTP status or Discord reply attached. The HTTP face maps them to statuses in one middleware;
// the bot's interaction dispatcher answers them as ephemeral replies. Anything else is a bug.
import { counted } from '../shared/words';
import { fieldSentences } from '../shared/field-words';

/** The base of every error a face may show as it is. */
export abstract class DomainError extends Error {
  override name = 'DomainError';
}

/** Nothing there, or nothing the caller may know about. */
export class NotFound extends DomainError {
  override name = 'NotFound';
  constructor(message = 'Not found.') {
    super(message);
  }
}

/** The caller may not do this. */
export class Forbidden extends DomainError {
  override name = 'Forbidden';
  constructor(message = 'You do not have permission to do that.') {
    super(message);
  }
}

/** The request clashes with the current state (a duplicate, a stale version, a taken id). */
export class Conflict extends DomainError {
  override name = 'Conflict';
  constructor(
    message: string,
    /** The input field that clashes, when one does. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Sentences from field messages, each field named in words: "Name is required. Price must be a
 * number." A message that is a sentence already (it starts with a capital) is kept as it is.
 */
export function summarizeFields(fields: Record<string, string>): string {
  const parts = Object.values(fieldSentences(fields));
  return parts.length ? parts.join(' ') : 'The input is invalid.';
}

/**
 * The request would do something with consequences the person has not confirmed yet (hand out a
 * role that carries staff permissions): `fields` names what needs confirming and why; the same
 * request with the confirmation goes through.
 */
export class ConfirmationRequired extends DomainError {
  override name = 'ConfirmationRequired';
  constructor(
    readonly fields: Record<string, string>,
    message: string,
    /** The roles to list in `confirmRoleIds` when asking again. */
    readonly roleIds: readonly string[],
  ) {
    super(message);
  }
}

/** One change made by someone else while the person was editing, in words (see src/shared/versions). */
export interface ChangeMeanwhile {
  field: string;
  label: string;
  from: string;
  to: string;
  by: string | null;
  at: string;
}

/**
 * A save based on an outdated copy would overwrite what someone else changed meanwhile: nothing is
 * saved; `changes` says what changed, and the same save with `version` as its base keeps the
 * person's values.
 */
export class StaleVersion extends DomainError {
  override name = 'StaleVersion';
  constructor(
    message: string,
    readonly version: number,
    readonly changes: readonly ChangeMeanwhile[],
  ) {
    super(message);
  }
}

/** The input is wrong; `fields` maps each bad field to what is wrong with it. */
export class InvalidInput extends DomainError {
  override name = 'InvalidInput';
  /** Each bad field's problem as a sentence naming the field ("Price must be a whole number."). */
  readonly fields: Record<string, string>;

  constructor(fields: Record<string, string>, message = summarizeFields(fields)) {
    super(message);
    this.fields = fieldSentences(fields);
  }

  /** One bad field: `InvalidInput.field('xpCooldown', 'must be at most 86400')`. */
  static field(field: string, problem: string, message?: string): InvalidInput {
    return new InvalidInput({ [field]: problem }, message);
  }
}

/** What was sent is too large: one file over the largest upload, or over what the server's storage has left. */
export class TooLarge extends DomainError {
  override name = 'TooLarge';
  constructor(
    message: string,
    /** 'file': over the largest upload; 'quota': over the server's storage left. */
    readonly limit: 'file' | 'quota',
  ) {
    super(message);
  }
}

/** What was sent is not of a kind taken here (a file that is not audio); `message` names what is. */
export class UnsupportedKind extends DomainError {
  override name = 'UnsupportedKind';
  constructor(message: string) {
    super(message);
  }
}

/** Discord refused what the bot tried; `message` says why and how to fix it, for a server admin. */
export class DiscordRefused extends DomainError {
  override name = 'DiscordRefused';
  constructor(
    /** Discord's JSON error code (50013 Missing Permissions, 10011 Unknown Role, ...), 0 if none. */
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Too many attempts; try again after `retryAfterSeconds`. */
export class RateLimited extends DomainError {
  override name = 'RateLimited';
  constructor(
    readonly retryAfterSeconds: number,
    message = `You are doing that too often. Try again in ${counted(retryAfterSeconds, 'second')}.`,
  ) {
    super(message);
  }
}

/** A feature the server turned off in Bot Settings. */
export class FeatureDisabled extends DomainError {
  override name = 'FeatureDisabled';
  constructor(message: string) {
    super(message);
  }
}

/** Why the store could not do its part: held by another writer, out of disk, or out of reach. */
export type StoreTrouble = 'busy' | 'full' | 'read-only' | 'unreachable';

/**
 * The store (SQLite or PostgreSQL) could not run a query for a reason outside the product: the
 * request changed nothing and can be tried again once the operator has fixed it (or at once, when
 * the store was only busy).
 */
export class StoreUnavailable extends DomainError {
  override name = 'StoreUnavailable';
  constructor(
    readonly trouble: StoreTrouble,
    message = STORE_TROUBLE_MESSAGES[trouble],
  ) {
    super(message);
  }
}

/** What a member or an admin reads when the store fails; each says that nothing was changed. */
export const STORE_TROUBLE_MESSAGES: Record<StoreTrouble, string> = {
  busy: 'The database is busy (another program is holding its lock). Nothing was changed; try again in a moment.',
  full: "The database's disk is full. Nothing was changed; the server's owner needs to free some disk space.",
  'read-only': 'The database is read-only (check its file permissions). Nothing was changed.',
  unreachable: 'The database cannot be reached right now. Nothing was changed; try again in a moment.',
};
