// Recognises the store's own failures (a lock held elsewhere, a full disk, a lost connection) in
// what Sequelize throws, so the faces can answer them in words instead of "something went wrong":
// HTTP as 503 with Retry-After, the bot as the member's ephemeral reply. Constraint violations,
// bad SQL and the like are bugs or domain conflicts and are left alone.
import { DomainError, StoreUnavailable, type StoreTrouble } from './errors';

/** SQLite's result codes (extended codes start with these) by trouble. */
const SQLITE_CODES: [prefix: string, trouble: StoreTrouble][] = [
  ['SQLITE_BUSY', 'busy'],
  ['SQLITE_LOCKED', 'busy'],
  ['SQLITE_FULL', 'full'],
  ['SQLITE_READONLY', 'read-only'],
  ['SQLITE_CANTOPEN', 'unreachable'],
  ['SQLITE_IOERR', 'unreachable'],
];

/** PostgreSQL's SQLSTATEs by trouble: exact codes, then classes (their first two characters). */
const POSTGRES_CODES: Record<string, StoreTrouble> = {
  '55P03': 'busy', // lock_not_available (lock_timeout)
  '40P01': 'busy', // deadlock_detected
  '57014': 'busy', // query_canceled (statement_timeout)
  '53100': 'full', // disk_full
  '25006': 'read-only', // read_only_sql_transaction (a standby)
};
const POSTGRES_CLASSES: Record<string, StoreTrouble> = {
  '08': 'unreachable', // connection exception
  '53': 'busy', // insufficient resources (too many connections, out of memory)
  '57': 'unreachable', // operator intervention (shutdown, cannot connect now)
};

/** Node's socket errors when the server is not there. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);

/** Sequelize's connection errors, by class name without its "Sequelize" prefix (they carry no code of their own). */
const CONNECTION_ERRORS = new Set(['ConnectionError', 'ConnectionRefusedError', 'ConnectionTimedOutError', 'HostNotFoundError', 'HostNotReachableError']);
/**
 * No pooled connection came free within LOCK_WAIT_MS (src/db/postgres.ts): they are all held,
 * by writes waiting for a lock held elsewhere or by slow statements. A server out of reach fails
 * its connection attempts (ConnectionError) within the same wait.
 */
const POOL_FULL = 'ConnectionAcquireTimeoutError';

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** The trouble one error (not its causes) names, if any. */
function troubleOf(error: unknown): StoreTrouble | null {
  if (error instanceof StoreUnavailable) return error.trouble;
  const code = codeOf(error);
  if (code) {
    if (NETWORK_CODES.has(code)) return 'unreachable';
    const sqlite = SQLITE_CODES.find(([prefix]) => code.startsWith(prefix));
    if (sqlite) return sqlite[1];
    if (/^[0-9A-Z]{5}$/.test(code)) return POSTGRES_CODES[code] ?? POSTGRES_CLASSES[code.slice(0, 2)] ?? null;
  }
  const name = error instanceof Error ? error.name.replace(/^Sequelize/, '') : '';
  if (name === POOL_FULL) return 'busy';
  if (CONNECTION_ERRORS.has(name)) return 'unreachable';
  if (error instanceof Error && /ConnectionManager.getConnection was called after the connection manager was closed/.test(error.message)) return 'unreachable';
  return null;
}

/**
 * The StoreUnavailable an error from the store stands for (looking through Sequelize's wrappers:
 * `parent`, `original`, `cause`), or null when it is anything else.
 */
export function storeFailure(error: unknown): StoreUnavailable | null {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const trouble = troubleOf(current);
    if (trouble) return current instanceof StoreUnavailable ? current : new StoreUnavailable(trouble);
    const wrapper = current as { parent?: unknown; original?: unknown; cause?: unknown };
    current = wrapper.parent ?? wrapper.original ?? wrapper.cause;
  }
  return null;
}

/** The error as a face shows it: a domain error as it is, a store failure in words, else null (a bug). */
export function expectedError(error: unknown): DomainError | null {
  return error instanceof DomainError ? error : storeFailure(error);
}

/** The log fields of a store failure: which trouble, and the driver's own words (no stack: not a bug). */
export function failureFields(failure: StoreUnavailable, error: unknown): { trouble: StoreTrouble; cause: string } {
  return { trouble: failure.trouble, cause: error instanceof Error ? error.message : String(error) };
}
