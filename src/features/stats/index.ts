import type { Feature } from '../../core/feature';
import { countJoin, countLeave, countMessageActivity } from './listeners';

/** Activity counters (messages, joins, leaves, commands) behind the dashboard's numbers and chart. */
export const statsFeature: Feature = {
  name: 'stats',
  listeners: [countMessageActivity, countJoin, countLeave],
  start: ({ activity }) => activity.start(),
  stop: ({ activity }) => activity.stop(),
};
