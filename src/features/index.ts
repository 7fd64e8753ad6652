import type { Feature } from '../core/feature';
import { accessFeature } from './access';
import { announcementsFeature } from './announcements';
import { diagnosticsFeature } from './diagnostics';
import { economyFeature } from './economy';
import { levelingFeature } from './leveling';
import { reactionRolesFeature } from './reaction-roles';
import { roleGrantsFeature } from './role-grants';
import { roleMenusFeature } from './role-menus';
import { verificationFeature } from './verification';
import { welcomeFeature } from './welcome';
import { authFeature } from './auth';
import { notificationsFeature } from './notifications';
import { serversFeature } from './servers';
import { settingsFeature } from './settings';
import { moderationFeature } from './moderation';
import { musicFeature } from './music';
import { statsFeature } from './stats';
import { systemFeature } from './system';
import { liveFeature } from './live';

/** Every feature of the product, in the order they start (and the reverse order they stop). */
export const FEATURES: readonly Feature[] = [
  systemFeature,
  authFeature,
  statsFeature,
  serversFeature,
  settingsFeature,
  accessFeature,
  notificationsFeature,
  welcomeFeature,
  verificationFeature,
  reactionRolesFeature,
  roleMenusFeature,
  announcementsFeature,
  levelingFeature,
  economyFeature,
  moderationFeature,
  roleGrantsFeature,
  musicFeature,
  diagnosticsFeature,
  liveFeature,
];
