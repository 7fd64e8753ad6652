import * as z from 'zod';

/** The features the diagnostics check, in the order the dashboard lists them. */
export const DIAGNOSTIC_FEATURES = ['welcome', 'verification', 'reactionRoles', 'leveling', 'economy', 'announcements', 'autoRole', 'notifications'] as const;
export type DiagnosticFeature = (typeof DIAGNOSTIC_FEATURES)[number];

/** How each feature is named on the dashboard. */
export const DIAGNOSTIC_FEATURE_LABELS: Record<DiagnosticFeature, string> = {
  welcome: 'Welcome System',
  verification: 'Rule Verification',
  reactionRoles: 'Reaction Roles',
  leveling: 'Leveling System',
  economy: 'Economy & Shop',
  announcements: 'Announcements',
  autoRole: 'Auto-assign member role',
  notifications: 'Notifications',
};

/** One thing that will fail now, and how to fix it. */
export const DiagnosticSchema = z.object({
  feature: z.enum(DIAGNOSTIC_FEATURES),
  /** `error`: the feature does not work; `warning`: part of it does not (other reactions are not cleaned up). */
  severity: z.enum(['error', 'warning']),
  /** What is wrong, in words: "AwesomeBot cannot send messages in #welcome." */
  problem: z.string(),
  /** What to do about it: "Give its role Send Messages there." */
  fix: z.string(),
  /** The setting or entry it is about (welcomeChannelId, reaction role 12), when there is one. */
  subject: z.string().nullable(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

/** GET /api/servers/:guildId/diagnostics: every item, and how many per feature. */
export const DiagnosticsSchema = z.object({
  items: z.array(DiagnosticSchema),
  counts: z.record(z.enum(DIAGNOSTIC_FEATURES), z.number().int()),
});
export type Diagnostics = z.infer<typeof DiagnosticsSchema>;

/** ?feature= narrows the list to one feature (the counts stay whole). */
export const DiagnosticsQuery = z.object({ feature: z.enum(DIAGNOSTIC_FEATURES, { error: 'is not one of the features the dashboard checks' }).optional() });
