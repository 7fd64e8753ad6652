// The Level-up messages card: where the bot congratulates a member (where they levelled, a fixed
// channel, a DM, or nowhere), the template with its placeholders as chips, a live preview drawn by
// the bot's own renderer, and at which levels.
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import {
  bonusWords,
  LEVEL_UP_MESSAGE_MAX,
  LEVEL_UP_PLACEHOLDERS,
  placeholderProblem,
  renderLevelUp,
  type LevelUpDestination,
  type LevelUpWhen,
} from '../../../src/shared/level-up-messages';
import type { GuildDirectory } from '../../../src/shared/servers';
import { useCurrentUser } from '../../api/queries';
import { DiscordPreview } from '../../components/discord-preview';
import { ChannelPicker, Field } from '../../components/form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Textarea } from '../../components/ui/textarea';
import { parseWhole } from '../../numbers';
import { rewardsQuery } from './api';
import type { LevelUpDraft } from './level-up-draft';

type Where = LevelUpDestination | 'none';
const WHERE_OPTIONS: { value: Where; label: string }[] = [
  { value: 'levelled', label: 'The channel they levelled up in' },
  { value: 'channel', label: 'A fixed channel' },
  { value: 'dm', label: 'A direct message' },
  { value: 'none', label: 'Nowhere' },
];
const WHEN_OPTIONS: { value: LevelUpWhen; label: string }[] = [
  { value: 'every', label: 'Every level' },
  { value: 'nth', label: 'Every Nth level' },
  { value: 'rewards', label: 'Only levels with a role reward' },
];

/** Props of LevelUpMessagesCard. */
export interface LevelUpMessagesCardProps {
  guildId: string;
  draft: LevelUpDraft & { levelUpAnnouncements: boolean; levelUpBonus: string };
  update: (patch: Partial<LevelUpDraft & { levelUpAnnouncements: boolean }>) => void;
  errors: Record<string, string>;
  directory: GuildDirectory | undefined;
  serverName: string;
  currencyName: string;
  readOnly: boolean;
}

/** The level the preview shows, and the rewards it would name: the first level the "when" announces. */
function sampleLevel(draft: LevelUpDraft, rewards: readonly { level: number; roleName: string | null; roleId: string }[]) {
  const rewarded = rewards[0]?.level;
  const level = draft.levelUpWhen === 'nth' ? Math.max(2, parseWhole(draft.levelUpEveryN)) : (rewarded ?? 5);
  return { level, names: rewards.filter((reward) => reward.level === level).map((reward) => reward.roleName ?? reward.roleId) };
}

/** The Level-up messages card. */
export function LevelUpMessagesCard({ guildId, draft, update, errors, directory, serverName, currencyName, readOnly }: LevelUpMessagesCardProps) {
  const area = useRef<HTMLTextAreaElement>(null);
  const me = useCurrentUser().data;
  const rewards = useQuery(rewardsQuery(guildId)).data ?? [];
  const where: Where = draft.levelUpAnnouncements ? draft.levelUpDestination : 'none';
  const { level, names } = sampleLevel(draft, rewards);
  const userId = me?.discordId ?? '0';
  const preview = renderLevelUp(draft.levelUpMessage, {
    userId,
    level,
    server: serverName || 'this server',
    rewards: names,
    bonus: bonusWords(parseWhole(draft.levelUpBonus), currencyName),
  });
  const channelName = directory?.channels.find((channel) => channel.id === draft.levelUpChannelId)?.name;
  const whereLabel =
    where === 'dm' ? 'Direct message' : where === 'channel' ? (channelName ? `#${channelName}` : 'No channel picked') : 'Where they levelled up';
  const templateError =
    errors.levelUpMessage ?? (placeholderProblem(draft.levelUpMessage) ? `The message ${placeholderProblem(draft.levelUpMessage)}.` : undefined);
  const insert = (token: string) => {
    const element = area.current;
    const start = element?.selectionStart ?? draft.levelUpMessage.length;
    const end = element?.selectionEnd ?? draft.levelUpMessage.length;
    update({ levelUpMessage: `${draft.levelUpMessage.slice(0, start)}${token}${draft.levelUpMessage.slice(end)}` });
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Level-up messages</CardTitle>
        <CardDescription>How the bot congratulates a member who levels up. It pings only that member, whatever the message says.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <div className="form-grid">
          <Field label="Where" error={errors.levelUpDestination ?? errors.levelUpAnnouncements}>
            {(ids) => (
              <Select
                id={ids.id}
                aria-label="Where level-ups are announced"
                value={where}
                onValueChange={(next) => {
                  const choice = WHERE_OPTIONS.find((option) => option.value === next)?.value ?? where;
                  update(choice === 'none' ? { levelUpAnnouncements: false } : { levelUpAnnouncements: true, levelUpDestination: choice });
                }}
                options={WHERE_OPTIONS}
                disabled={readOnly}
              />
            )}
          </Field>
          {where === 'channel' ? (
            <Field label="Level-up channel" error={errors.levelUpChannelId}>
              {(ids) => (
                <ChannelPicker
                  {...ids}
                  value={draft.levelUpChannelId}
                  onChange={(levelUpChannelId) => update({ levelUpChannelId })}
                  directory={directory}
                  disabled={readOnly}
                />
              )}
            </Field>
          ) : null}
          <Field label="When" error={errors.levelUpWhen}>
            {(ids) => (
              <Select
                id={ids.id}
                aria-label="Which level-ups are announced"
                value={draft.levelUpWhen}
                onValueChange={(next) => update({ levelUpWhen: WHEN_OPTIONS.find((option) => option.value === next)?.value ?? draft.levelUpWhen })}
                options={WHEN_OPTIONS}
                disabled={readOnly || where === 'none'}
              />
            )}
          </Field>
          {draft.levelUpWhen === 'nth' ? (
            <Field label="Every how many levels" hint="5: levels 5, 10, 15…" error={errors.levelUpEveryN}>
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  inputMode="numeric"
                  min={2}
                  max={100}
                  step={1}
                  value={draft.levelUpEveryN}
                  onChange={(event) => update({ levelUpEveryN: event.target.value })}
                  disabled={readOnly || where === 'none'}
                />
              )}
            </Field>
          ) : null}
        </div>
        <Field label="Level-up message" error={templateError}>
          {(ids) => (
            <div className="stack-sm">
              <Textarea
                {...ids}
                ref={area}
                rows={3}
                maxLength={LEVEL_UP_MESSAGE_MAX}
                value={draft.levelUpMessage}
                onChange={(event) => update({ levelUpMessage: event.target.value })}
                disabled={readOnly || where === 'none'}
              />
              <div className="chip-row" role="group" aria-label="Insert into the level-up message">
                {LEVEL_UP_PLACEHOLDERS.map((placeholder) => (
                  <button
                    key={placeholder.token}
                    type="button"
                    className="chip chip-button"
                    title={placeholder.meaning}
                    onClick={() => insert(placeholder.token)}
                    disabled={readOnly || where === 'none'}
                  >
                    {placeholder.token}
                  </button>
                ))}
              </div>
            </div>
          )}
        </Field>
        {where === 'none' ? (
          <p className="muted small">Level-ups are not announced. Members still level up, get their bonus and their role rewards.</p>
        ) : (
          <div className="stack-sm">
            <span className="muted small">Preview, as if you had reached level {level}:</span>
            <DiscordPreview
              botName={directory?.bot.name ?? 'AwesomeBot'}
              content={preview}
              users={{ [userId]: me?.username ?? 'you' }}
              channelLabel={whereLabel}
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
