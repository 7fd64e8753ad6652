import * as z from 'zod';

/** Gateway connection states reported by /api/health. */
export const GATEWAY_STATUSES = ['ready', 'connecting', 'reconnecting', 'disconnected', 'not_configured'] as const;

/** The body of GET /api/health. `status` is 'ok' when the store answers, else 'degraded'. */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  gateway: z.object({
    status: z.enum(GATEWAY_STATUSES),
    /** Heartbeat round trip in ms; -1 before the first heartbeat. */
    ping: z.number(),
    guilds: z.number().int(),
  }),
  db: z.enum(['ok', 'error']),
});
export type Health = z.infer<typeof HealthSchema>;
