/** How long a writer waits for a lock (SQLite's busy timeout, PostgreSQL's lock_timeout) before failing, in ms. */
export const LOCK_WAIT_MS = 5000;
