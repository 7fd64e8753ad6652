import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConnectionAcquireTimeoutError, ConnectionError, ConnectionRefusedError } from 'sequelize';
import { Conflict, StoreUnavailable } from './errors';
import { expectedError, storeFailure } from './store-errors';

/** An error shaped as Sequelize wraps a driver's: the driver's error (with its code) as `parent`. */
function wrapped(code: string, message = 'driver error'): Error {
  const driver = Object.assign(new Error(message), { code });
  return Object.assign(new Error(message), { name: 'SequelizeDatabaseError', parent: driver, original: driver });
}

test('store failures are recognised through the wrappers, by SQLite code, SQLSTATE or socket error', () => {
  const cases: [Error, string | null][] = [
    [wrapped('SQLITE_BUSY'), 'busy'],
    [wrapped('SQLITE_BUSY_SNAPSHOT'), 'busy'],
    [wrapped('SQLITE_FULL'), 'full'],
    [wrapped('SQLITE_READONLY'), 'read-only'],
    [wrapped('SQLITE_IOERR_WRITE'), 'unreachable'],
    [wrapped('55P03'), 'busy'],
    [wrapped('53100'), 'full'],
    [wrapped('53300'), 'busy'],
    [wrapped('08006'), 'unreachable'],
    [wrapped('57P01'), 'unreachable'],
    [wrapped('ECONNREFUSED'), 'unreachable'],
    [wrapped('EPIPE'), 'unreachable'],
    [Object.assign(new Error('connect'), { name: 'ConnectionRefusedError' }), 'unreachable'],
    // Sequelize's own classes (named "Sequelize…"), wrapping errors that carry no code.
    [new ConnectionRefusedError(new Error('connect failed')), 'unreachable'],
    [new ConnectionError(new Error('Connection terminated due to connection timeout')), 'unreachable'],
    // Every pooled connection held (by writes waiting for a lock) past the wait: busy, not out of reach.
    [new ConnectionAcquireTimeoutError(new Error('Operation timeout')), 'busy'],
    // Not the store's trouble: a constraint, bad SQL, a bug.
    [wrapped('SQLITE_CONSTRAINT_UNIQUE'), null],
    [wrapped('23505'), null],
    [wrapped('42P01'), null],
    [new TypeError('x is undefined'), null],
  ];
  for (const [error, trouble] of cases)
    assert.equal(storeFailure(error)?.trouble ?? null, trouble, `${(error as { parent?: { code?: string } }).parent?.code ?? error.name}`);
});

test('a cause chain that loops ends; expectedError keeps domain errors and words store failures', () => {
  const looped = new Error('a') as Error & { cause?: unknown };
  looped.cause = looped;
  assert.equal(storeFailure(looped), null);
  const conflict = new Conflict('taken');
  assert.equal(expectedError(conflict), conflict);
  assert.ok(expectedError(wrapped('SQLITE_FULL')) instanceof StoreUnavailable);
  assert.equal(expectedError(new Error('bug')), null);
});
