import type { Grant, GrantSource } from '../core/access';
import type { Clock } from '../core/clock';
import { GuildScope } from './scoped';
import type { Store } from './store';
import type { GrantLevel } from '../shared/access';
import type { DashboardGrant } from './models/settings';

/** How long a guild's grants are reused before they are read again (other processes may change them). */
const GRANTS_TTL_MS = 30_000;

/** A stored grant as the access rule and the dashboard read it. */
function grantOf(row: DashboardGrant): Grant & { createdBy: string; createdAt: Date } {
  return {
    id: row.id,
    guildId: row.guildId,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    level: row.level,
    expiresAt: row.expiresAt,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
  };
}

/**
 * Delegated dashboard access of every guild: the grant rows, cached per guild for the access rule
 * (read on every guild request) and invalidated on every change made here. A change made by
 * another process on the same database is seen within GRANTS_TTL_MS.
 */
export class GrantStore implements GrantSource {
  private readonly cache = new Map<string, { at: number; grants: Promise<Grant[]> }>();

  constructor(private readonly deps: { store: Store; clock: Clock }) {}

  /** The guild's grants (expired ones included; the access rule skips them). */
  grantsOf(guildId: string): Promise<Grant[]> {
    const hit = this.cache.get(guildId);
    if (hit && Date.now() - hit.at < GRANTS_TTL_MS) return hit.grants;
    const grants = this.rows(guildId)
      .findAll({ order: [['id', 'ASC']] })
      .then((rows) => rows.map(grantOf));
    this.cache.set(guildId, { at: Date.now(), grants });
    grants.catch(() => this.cache.delete(guildId));
    return grants;
  }

  /** Grants (or changes) `level` to a role or member, until `expiresAt`; returns the grant. */
  async grant(
    guildId: string,
    input: { subjectType: 'role' | 'member'; subjectId: string; level: GrantLevel; expiresAt: Date | null; createdBy: string },
  ): Promise<Grant & { createdBy: string; createdAt: Date }> {
    const rows = this.rows(guildId);
    try {
      const existing = await rows.findOne({ where: { subjectType: input.subjectType, subjectId: input.subjectId } });
      const row = existing
        ? await existing.update({ level: input.level, expiresAt: input.expiresAt, createdBy: input.createdBy, createdAt: this.deps.clock.now() })
        : await rows.create({ ...input, createdAt: this.deps.clock.now() });
      return grantOf(row);
    } finally {
      this.cache.delete(guildId);
    }
  }

  /** Removes a grant; returns it, or null when the guild has no such grant. */
  async revoke(guildId: string, grantId: number): Promise<Grant | null> {
    const rows = this.rows(guildId);
    try {
      const row = await rows.findOne({ where: { id: grantId } });
      if (!row) return null;
      await row.destroy();
      return { id: row.id, guildId, subjectType: row.subjectType, subjectId: row.subjectId, level: row.level, expiresAt: row.expiresAt };
    } finally {
      this.cache.delete(guildId);
    }
  }

  private rows(guildId: string) {
    return new GuildScope(this.deps.store.models.DashboardGrant, guildId);
  }
}
