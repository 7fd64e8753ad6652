// How the moderation page words and colours what the API sends: actions, sources and report
// statuses, and a person's label ('User #' and the last 4 characters of the id, spec section 9).
import { lastFour, type CaseAction, type CaseSource } from '../../../src/shared/moderation';
import { type ReportStatus } from '../../../src/shared/reports';
import type { BadgeTone } from '../../components/ui/badge';

/** Each case action's badge, and the words of the dialog that runs it. */
export const ACTION_STYLE: Record<CaseAction, { label: string; tone: BadgeTone }> = {
  ban: { label: 'Ban', tone: 'danger' },
  kick: { label: 'Kick', tone: 'warning' },
  timeout: { label: 'Timeout', tone: 'warning' },
  warn: { label: 'Warn', tone: 'brand' },
  unban: { label: 'Unban', tone: 'success' },
  note: { label: 'Note', tone: 'neutral' },
  delete: { label: 'Message deleted', tone: 'neutral' },
  untimeout: { label: 'Timeout lifted', tone: 'success' },
  purge: { label: 'Purge', tone: 'neutral' },
  slowmode: { label: 'Slowmode', tone: 'neutral' },
  lock: { label: 'Lock', tone: 'warning' },
  unlock: { label: 'Unlock', tone: 'success' },
  pardon: { label: 'Pardon', tone: 'success' },
};

/** Where a case came from, as the log says it. */
export const SOURCE_LABELS: Record<CaseSource, string> = {
  dashboard: 'Dashboard',
  command: 'Command',
  discord: 'Discord',
  automatic: 'Automatic',
};

/** A report's status badge. */
export const REPORT_STATUS_STYLE: Record<ReportStatus, { label: string; tone: BadgeTone }> = {
  open: { label: 'Open', tone: 'warning' },
  resolved: { label: 'Resolved', tone: 'success' },
  dismissed: { label: 'Dismissed', tone: 'neutral' },
};

/** 'User #1234', with the name first when the server knows it: 'alice (User #1234)'. */
export function userLabel(id: string, name: string | null, noun = 'User'): string {
  const tag = `${noun} #${lastFour(id)}`;
  return name ? `${name} (${tag})` : tag;
}
