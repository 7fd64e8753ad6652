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

/** 400: the input is malformed; `fields` names each bad field. */
export class ValidationError extends HttpError {
  constructor(message: string, fields?: Record<string, string>) {
    super(400, 'validation_error', message, fields);
  }
}

/** 401: no signed-in session. */
export class Unauthorized extends HttpError {
  constructor(message = 'You need to sign in.') {
    super(401, 'unauthorized', message);
  }
}

/** 403: signed in, but not allowed. */
export class Forbidden extends HttpError {
  constructor(message = 'You do not have permission to do that.') {
    super(403, 'forbidden', message);
  }
}

/** 404: nothing here, or nothing the caller may know about. */
export class NotFound extends HttpError {
  constructor(message = 'Not found.') {
    super(404, 'not_found', message);
  }
}

/** 409: the request conflicts with the current state. */
export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

/** 429: slow down; `retryAfterSeconds` goes out as Retry-After. */
export class TooManyRequests extends HttpError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', `Too many requests. Try again in ${retryAfterSeconds} s.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

/** 502: an upstream (Discord) failed in a way the caller cannot fix. */
export class BadGateway extends HttpError {
  constructor(message: string) {
    super(502, 'upstream_error', message);
  }
}
