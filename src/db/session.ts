import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Dialect, SqlParam, SqlSession } from './sql';

/** An SqlSession over a Sequelize transaction on this thread. */
export function sequelizeSession(sequelize: Sequelize, transaction: Transaction): SqlSession {
  const dialect = sequelize.getDialect() as Dialect;
  return {
    dialect,
    // Read as rows whatever the statement: Sequelize's SQLite dialect runs SQL that starts with
    // "insert into" without reading rows back, which RETURNING needs, and the leading comment
    // keeps it from looking.
    query: <R extends object>(sql: string, params: readonly SqlParam[] = []) =>
      sequelize.query<R>(`/* rows */ ${sql}`, { transaction, type: QueryTypes.SELECT, ...(params.length > 0 ? { bind: [...params] } : {}) }),
  };
}
