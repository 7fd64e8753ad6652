// Leveling System (/server/{serverId}/leveling, spec section 2): Total Users, Highest Level and XP
// per Message, XP earned per day, the leaderboard, the settings and XP multipliers saved with Save
// Settings (spec sections 5 and 8), and the role rewards.
import { useQuery } from '@tanstack/react-query';
import { BarChart3, Sparkles, TrendingUp, Users } from 'lucide-react';
import { LEVELING_MESSAGES, XP_PER_MESSAGE } from '../../../src/shared/leveling';
import { useSettingsForm } from '../../api/settings-form';
import { Field, SwitchRow } from '../../components/form';
import { SaveBar, SettingsForm, SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { DiagnosticsPanel } from '../../components/diagnostics-panel';
import { StatCard } from '../../components/stat-card';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage } from '../../api/client';
import { levelingStatsQuery } from './api';
import { parseDecimal } from '../../numbers';
import { bodyOf, draftOf, MULTIPLIERS, type Draft } from './draft';
import { Leaderboard } from './leaderboard';
import { RoleRewards } from './role-rewards';
import { XpChart } from '../../components/lazy-charts';
import { directoryQuery } from '../../api/guild';
import { LevelUpMessagesCard } from './level-up-card';
import { XpRulesCard } from './xp-rules-card';
import { LevelAdminTools } from './admin-tools';

const XP_RANGE = `${XP_PER_MESSAGE.min}-${XP_PER_MESSAGE.max}`;

/** The three stat cards. */
function Stats({ guildId }: { guildId: string }) {
  const stats = useQuery(levelingStatsQuery(guildId)).data;
  return (
    <div className="grid grid-stats">
      <StatCard label="Total Users" value={stats?.totalUsers} icon={Users} hint="Members with XP" />
      <StatCard label="Highest Level" value={stats?.highestLevel} icon={TrendingUp} tone="success" />
      <StatCard label="XP per Message" value={XP_RANGE} icon={Sparkles} tone="warning" hint="Random, before multipliers" />
    </div>
  );
}

/** XP earned per day, or an empty state before any. */
function DailyXp({ guildId }: { guildId: string }) {
  const stats = useQuery(levelingStatsQuery(guildId));
  const daily = stats.data?.daily ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>XP earned</CardTitle>
        <CardDescription>XP members earned per day, last 30 days (UTC).</CardDescription>
      </CardHeader>
      <CardContent>
        {stats.isPending ? (
          <Skeleton height="220px" />
        ) : stats.isError ? (
          <p className="error-text small">Could not load the XP per day: {errorMessage(stats.error)}</p>
        ) : daily.every((day) => day.xp === 0) ? (
          <EmptyState icon={BarChart3} title="No XP earned yet" description="When members chat or talk in voice, their XP per day shows here." />
        ) : (
          <XpChart daily={daily} />
        )}
      </CardContent>
    </Card>
  );
}

/** Props of NumberField. */
interface NumberFieldProps {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  step: number;
  error?: string;
  disabled: boolean;
}

/** A labelled number input (the text is kept as typed; the body parses it). */
function NumberField({ label, hint, value, onChange, min, max, step, error, disabled }: NumberFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(ids) => (
        <Input
          {...ids}
          type="number"
          inputMode={step < 1 ? 'decimal' : 'numeric'}
          min={min}
          max={max}
          step={step}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          disabled={disabled}
        />
      )}
    </Field>
  );
}

/** "5-20 XP" after multiplying, rounded as the bot rounds. */
function range(factor: number): string {
  return `${Math.round(XP_PER_MESSAGE.min * factor)}-${Math.round(XP_PER_MESSAGE.max * factor)} XP`;
}

/** What a message earns with the multipliers as typed. */
function earningSummary(draft: Draft): string {
  const text = parseDecimal(draft.textMultiplier);
  const weekend = parseDecimal(draft.weekendMultiplier);
  const boost = parseDecimal(draft.boostMultiplier);
  return (
    `A message earns ${range(text)}, ${range(text * weekend)} on weekends; a booster's message ${range(text * boost)}. A minute in voice earns ` +
    `${range(parseDecimal(draft.voiceMultiplier))}.`
  );
}

/** The cards, the leaderboard and the form, once the settings have loaded. */
function LevelingBody({ guildId, view, serverName, readOnly }: SettingsBodyProps) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const form = useSettingsForm({
    guildId,
    view,
    draftOf,
    bodyOf,
    success: LEVELING_MESSAGES.saved,
    failure: { title: LEVELING_MESSAGES.failedTitle, description: LEVELING_MESSAGES.failedFallback },
  });
  const { draft, update, errors } = form;
  return (
    <>
      <Stats guildId={guildId} />
      <div className="grid grid-2 align-start">
        <DailyXp guildId={guildId} />
        <Leaderboard guildId={guildId} />
      </div>
      <SettingsForm label="Leveling settings" onSave={form.save}>
        <div className="grid grid-2 align-start">
          <Card>
            <CardHeader>
              <CardTitle>Leveling settings</CardTitle>
              <CardDescription>Members earn {XP_RANGE} XP per message, at most once per cooldown.</CardDescription>
            </CardHeader>
            <CardContent className="stack">
              <SwitchRow
                label="Enable leveling"
                description="When off, nobody earns XP and the rank commands say leveling is off."
                checked={draft.levelingEnabled}
                onChange={(levelingEnabled) => update({ levelingEnabled })}
                disabled={readOnly}
                error={errors.levelingEnabled}
              />
              <SwitchRow
                label="Level-up announcements"
                description="Congratulate the member when they level up (where and how: Level-up messages below)."
                checked={draft.levelUpAnnouncements}
                onChange={(levelUpAnnouncements) => update({ levelUpAnnouncements })}
                disabled={readOnly}
                error={errors.levelUpAnnouncements}
              />
              <div className="form-grid">
                <NumberField
                  label="Level-up bonus"
                  hint={`${view.currencyName} credited at each level-up.`}
                  value={draft.levelUpBonus}
                  onChange={(levelUpBonus) => update({ levelUpBonus })}
                  min={0}
                  max={1_000_000}
                  step={1}
                  error={errors.levelUpBonus}
                  disabled={readOnly}
                />
                <NumberField
                  label="XP cooldown (seconds)"
                  hint="Between two messages that earn XP; the ones in between still count."
                  value={draft.xpCooldown}
                  onChange={(xpCooldown) => update({ xpCooldown })}
                  min={0}
                  max={86_400}
                  step={1}
                  error={errors.xpCooldown}
                  disabled={readOnly}
                />
              </div>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>XP Multipliers</CardTitle>
              <CardDescription>XP is multiplied by these; weekend and boost apply on top of text and voice.</CardDescription>
            </CardHeader>
            <CardContent className="stack">
              <div className="form-grid">
                {MULTIPLIERS.map((multiplier) => (
                  <NumberField
                    key={multiplier.key}
                    label={multiplier.label}
                    hint={multiplier.hint}
                    value={draft[multiplier.key]}
                    onChange={(value) => update({ [multiplier.key]: value })}
                    min={0}
                    max={10}
                    step={0.1}
                    error={errors[multiplier.key]}
                    disabled={readOnly}
                  />
                ))}
              </div>
              <p className="muted small">{earningSummary(draft)}</p>
            </CardContent>
          </Card>
        </div>
        {/* Issue 25: level-up messages and XP rules, saved with the form. */}
        <div className="grid grid-2 align-start">
          <LevelUpMessagesCard
            guildId={guildId}
            draft={draft}
            update={update}
            errors={errors}
            directory={directory}
            serverName={serverName}
            currencyName={view.currencyName}
            readOnly={readOnly}
          />
          <XpRulesCard draft={draft} update={update} errors={errors} directory={directory} readOnly={readOnly} />
        </div>
        <RoleRewards
          guildId={guildId}
          readOnly={readOnly}
          stack={draft.levelRewardsStack}
          onStackChange={(levelRewardsStack) => update({ levelRewardsStack })}
          stackError={errors.levelRewardsStack}
        />
        {readOnly ? null : <SaveBar dirty={form.dirty} saving={form.saving} onDiscard={form.discard} saveLabel="Save Settings" />}
      </SettingsForm>
      <LevelAdminTools guildId={guildId} readOnly={readOnly} />
      <DiagnosticsPanel guildId={guildId} features="leveling" />
    </>
  );
}

/** The Leveling System page. */
export default function LevelingPage() {
  return (
    <SettingsShell title="Leveling System" description="Members earn XP by chatting and in voice, level up, and get role rewards.">
      {(props) => <LevelingBody {...props} />}
    </SettingsShell>
  );
}
