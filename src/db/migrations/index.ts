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
];
