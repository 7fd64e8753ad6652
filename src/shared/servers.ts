import * as z from 'zod';
import { Snowflake } from './auth';

/** Path parameters of every /api/servers/:serverId/* route. */
export const ServerParams = z.object({ serverId: Snowflake });

/** One day of the per-server activity chart. `date` is YYYY-MM-DD (UTC). */
export const ActivityDaySchema = z.object({
  date: z.string(),
  messages: z.number().int(),
  joins: z.number().int(),
});

/** GET /api/servers/:serverId/overview: the per-server dashboard. */
export const ServerOverviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  memberCount: z.number().int(),
  commandsUsed: z.number().int(),
  /** Members who posted in the last 7 days. */
  activeUsers: z.number().int(),
  /** Sum of all members' balances. */
  economyBalance: z.number().int(),
  /** The last 30 days, oldest first, one entry per day (zeros included). */
  activity: z.array(ActivityDaySchema),
});
export type ServerOverview = z.infer<typeof ServerOverviewSchema>;
