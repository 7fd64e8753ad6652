import type { QueryInterface } from 'sequelize';
import * as initial from './001-initial';

/** A versioned migration; `name` is recorded in SequelizeMeta once applied. */
export interface Migration {
  name: string;
  up(params: { context: QueryInterface }): Promise<void>;
  down(params: { context: QueryInterface }): Promise<void>;
}

/** Every migration in order. Listed by hand: folder scanning does not survive bundling. */
export const MIGRATIONS: Migration[] = [{ name: '001-initial', ...initial }];
