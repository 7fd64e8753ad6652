import { pathSegments } from './router';

/** Statuses a fault can answer with: Discord refusing the call (400), rate limiting it, or failing. */
export type FaultStatus = 400 | 429 | 500 | 502 | 503;

/** A REST fault: the next `count` calls matching `route` answer `status`. */
export interface FaultInput {
  /** `METHOD /path/:param` (params match any segment), a path without method, or a prefix ending in `*`. */
  route: string;
  status: FaultStatus;
  count: number;
  /** Seconds, for 429 (default 0.2). */
  retryAfter?: number;
  /** For 400: Discord's JSON error code and message (default 50035 Invalid Form Body). */
  code?: number;
  message?: string;
}

interface Fault extends FaultInput {
  method: string | null;
  segments: string[];
  prefix: boolean;
  remaining: number;
}

/** Injected REST failures: refusals (400), 429 storms and 5xx, consumed one call at a time. */
export class FaultInjector {
  private faults: Fault[] = [];

  /** Arms a fault. */
  add(input: FaultInput): void {
    const trimmed = input.route.trim();
    const space = trimmed.indexOf(' ');
    const method = space > 0 ? trimmed.slice(0, space).toUpperCase() : null;
    let path = space > 0 ? trimmed.slice(space + 1).trim() : trimmed;
    const prefix = path.endsWith('*');
    if (prefix) path = path.slice(0, -1);
    this.faults.push({ ...input, method, segments: pathSegments(path.replace(/^\/api(\/v\d+)?/, '')), prefix, remaining: input.count });
  }

  /** Removes every armed fault. */
  clear(): void {
    this.faults = [];
  }

  /** The fault the call `method` + `segments` hits (consuming one use), or null. */
  take(method: string, segments: string[]): { status: FaultStatus; retryAfter: number; code: number; message: string } | null {
    const fault = this.faults.find((f) => f.remaining > 0 && matches(f, method, segments));
    if (!fault) return null;
    fault.remaining -= 1;
    this.faults = this.faults.filter((f) => f.remaining > 0);
    return { status: fault.status, retryAfter: fault.retryAfter ?? 0.2, code: fault.code ?? 50035, message: fault.message ?? 'Invalid Form Body' };
  }
}

function matches(fault: Fault, method: string, segments: string[]): boolean {
  if (fault.method && fault.method !== method) return false;
  if (fault.prefix ? segments.length < fault.segments.length : segments.length !== fault.segments.length) return false;
  return fault.segments.every((part, i) => part.startsWith(':') || part === segments[i]);
}
