import { pino, type Logger } from 'pino';

export type { Logger };

/** Creates the process logger: JSON lines on stdout, one child per face (http, bot, sandbox). */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', '*.accessToken', '*.refreshToken'], remove: true },
  });
}
