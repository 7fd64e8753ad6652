// Errors that exist only on the HTTP face (no session, a transport-level limit). Everything a
// domain function raises comes from src/core/errors and is mapped in middleware/errors.ts.
import { counted } from '../shared/words';

/** An error with an HTTP status and a stable code; the error middleware answers it as JSON. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 401: no signed-in session. */
export class Unauthorized extends HttpError {
  constructor(message = 'You need to sign in.') {
    super(401, 'unauthorized', message);
  }
}

/** 429 from the HTTP rate limiter; `retryAfterSeconds` goes out as Retry-After. */
export class TooManyRequests extends HttpError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', `Too many requests. Try again in ${counted(retryAfterSeconds, 'second')}.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
