import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore, type Store } from '../../src/db/store';

/** A store backend to run a suite on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set. */
export interface StoreBackend {
  name: 'sqlite' | 'postgres';
  /** Creates an empty database and returns its URL, plus how to drop it. */
  createDatabase(): Promise<{ url: string; drop(): Promise<void> }>;
}

const sqlite: StoreBackend = {
  name: 'sqlite',
  async createDatabase() {
    return { url: 'sqlite::memory:', drop: async () => {} };
  },
};

/** A PostgreSQL backend that makes a throwaway database per call, so parallel test files never collide. */
function postgres(adminUrl: string): StoreBackend {
  return {
    name: 'postgres',
    async createDatabase() {
      const name = `test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        async drop() {
          const client = new pg.Client({ connectionString: adminUrl });
          await client.connect();
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await client.end();
        },
      };
    },
  };
}

/** The backends this run covers. */
export function storeBackends(): StoreBackend[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [sqlite, postgres(url)] : [sqlite];
}

/** Opens a migrated store on a fresh database of the backend (at `url`); `dispose` closes and drops it. */
export async function createTestStore(backend: StoreBackend = sqlite): Promise<{ store: Store; url: string; dispose(): Promise<void> }> {
  const database = await backend.createDatabase();
  const store = await openStore(database.url);
  await store.migrate();
  return {
    store,
    url: database.url,
    async dispose() {
      await store.close();
      await database.drop();
    },
  };
}
