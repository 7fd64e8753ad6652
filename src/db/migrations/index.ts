import type { QueryInterface } from 'sequelize';
import * as initial from './001-initial';
import * as guildScopedNames from './002-guild-scoped-names';
import * as community from './003-community';
import * as levelingEconomy from './004-leveling-economy';
import * as accrualFlushes from './005-accrual-flushes';
import * as moderation from './006-moderation';
import * as versions from './007-versions';
import * as roleGrantRetries from './008-role-grant-retries';
import * as music from './009-music';
import * as musicSessions from './010-music-sessions';
import * as caseRecords from './011-case-records';
import * as raids from './012-raids';
import * as appeals from './013-appeals';
import * as levelBackups from './014-level-backups';
import * as recurringAnnouncements from './017-recurring-announcements';
import * as roleMenus from './018-role-menus';

/** A versioned migration; `name` is recorded in SequelizeMeta once applied. */
export interface Migration {
  name: string;
  up(params: { context: QueryInterface }): Promise<void>;
  down(params: { context: QueryInterface }): Promise<void>;
}

/** Every migration in order. Listed by hand: folder scanning does not survive bundling. */
export const MIGRATIONS: Migration[] = [
  { name: '001-initial', ...initial },
  { name: '002-guild-scoped-names', ...guildScopedNames },
  { name: '003-community', ...community },
  { name: '004-leveling-economy', ...levelingEconomy },
  { name: '005-accrual-flushes', ...accrualFlushes },
  { name: '006-moderation', ...moderation },
  { name: '007-versions', ...versions },
  { name: '008-role-grant-retries', ...roleGrantRetries },
  { name: '009-music', ...music },
  { name: '010-music-sessions', ...musicSessions },
  { name: '011-case-records', ...caseRecords },
  { name: '012-raids', ...raids },
  { name: '013-appeals', ...appeals },
  { name: '014-level-backups', ...levelBackups },
  { name: '017-recurring-announcements', ...recurringAnnouncements },
  { name: '018-role-menus', ...roleMenus },
];
