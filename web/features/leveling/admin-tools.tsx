// The leveling admin tools on the Leveling page: reset and restore, XP adjustments, imports.
import { AdjustmentsCard } from './adjust-card';
import { ImportCard } from './import-card';
import { ResetRestoreCard } from './reset-card';

/** The three cards, two columns on wide screens. */
export function LevelAdminTools({ guildId, readOnly }: { guildId: string; readOnly: boolean }) {
  return (
    <>
      <div className="grid grid-2 align-start">
        <ResetRestoreCard guildId={guildId} readOnly={readOnly} />
        <ImportCard guildId={guildId} readOnly={readOnly} />
      </div>
      <AdjustmentsCard guildId={guildId} readOnly={readOnly} />
    </>
  );
}
