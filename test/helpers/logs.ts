import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logger';

/** A product logger whose JSON lines are kept in memory, so a test can read what was logged. */
export function captureLogs(level = 'debug'): { logger: Logger; lines: string[]; entries(): Record<string, unknown>[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return {
    logger: createLogger(level, stream),
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
