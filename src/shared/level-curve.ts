// The level curve: pure arithmetic, shared by the dashboard, the bot and the store writer's thread.

/** XP per message before multipliers: the spec's 5-20 range. */
export const XP_PER_MESSAGE = { min: 5, max: 20 } as const;

/** Levels start here (spec section 3's default). */
export const FIRST_LEVEL = 1;

/** XP needed to go from `level` to the next: 5L² + 50L + 100 (MEE6's curve, so admins can compare). */
export function xpToNextLevel(level: number): number {
  return 5 * level * level + 50 * level + 100;
}

/** The level a total of XP reaches, and the XP into that level. */
export function levelFromTotal(totalXp: number): { level: number; xp: number } {
  let level = FIRST_LEVEL;
  let rest = Math.max(0, Math.floor(totalXp));
  while (rest >= xpToNextLevel(level)) {
    rest -= xpToNextLevel(level);
    level += 1;
  }
  return { level, xp: rest };
}

/** The total XP at which a level starts. */
export function totalXpForLevel(level: number): number {
  let total = 0;
  for (let current = FIRST_LEVEL; current < level; current += 1) total += xpToNextLevel(current);
  return total;
}
