// Music settings: who may control the player, the queue's limits, the volume, when the bot leaves,
// the 24/7 radio channel and where "Now playing" is posted; saved with the save bar.
import { useQuery } from '@tanstack/react-query';
import { MUSIC_SETTING_LABELS, type MusicSettingsView } from '../../../src/shared/music';
import { directoryQuery } from '../../api/guild';
import { Combobox } from '../../components/ui/combobox';
import { stationsQuery } from './api';
import { ChannelPicker, Field, RolePicker, VoiceChannelPicker } from '../../components/form';
import { SaveBar, SettingsForm } from '../../components/settings-shell';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { parseWhole } from '../../numbers';
import { formatDuration } from './format';
import { useMusicSettingsForm, type MusicDraft } from './settings-draft';

type NumberKey =
  'musicVoteSkipRatio' | 'musicMaxQueueLength' | 'musicPerMemberQueueLimit' | 'musicMaxTrackSeconds' | 'musicDefaultVolume' | 'musicLeaveWhenAloneSeconds';

/** The number fields: their limits (as the shared schema has them) and a line of help. */
const NUMBER_FIELDS: { key: NumberKey; min: number; max: number; step: number; hint: (draft: MusicDraft) => string }[] = [
  {
    key: 'musicVoteSkipRatio',
    min: 0.1,
    max: 1,
    step: 0.05,
    hint: () => 'The share of listeners who must vote to skip: 0.5 is half. DJs skip without a vote.',
  },
  { key: 'musicMaxQueueLength', min: 1, max: 500, step: 1, hint: () => 'Tracks waiting at most.' },
  { key: 'musicPerMemberQueueLimit', min: 1, max: 100, step: 1, hint: () => 'Tracks one member may have waiting.' },
  {
    key: 'musicMaxTrackSeconds',
    min: 30,
    max: 86_400,
    step: 1,
    hint: (draft) => `In seconds (${formatDuration(parseWhole(draft.musicMaxTrackSeconds))}); longer tracks are refused.`,
  },
  { key: 'musicDefaultVolume', min: 1, max: 150, step: 1, hint: () => 'Percent, 1 to 150, when the bot joins.' },
  {
    key: 'musicLeaveWhenAloneSeconds',
    min: 0,
    max: 3600,
    step: 1,
    hint: () => 'Seconds the bot stays when everyone else has left the voice channel; 0 never leaves on its own.',
  },
];

/** Props of MusicSettingsCard. */
export interface MusicSettingsCardProps {
  guildId: string;
  view: MusicSettingsView;
  readOnly: boolean;
}

/** The settings form. */
export function MusicSettingsCard({ guildId, view, readOnly }: MusicSettingsCardProps) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const stations = useQuery(stationsQuery(guildId));
  const form = useMusicSettingsForm(guildId, view);
  const { draft, update, errors } = form;
  return (
    <SettingsForm label="Music settings" onSave={form.save}>
      <Card>
        <CardHeader>
          <CardTitle>Music settings</CardTitle>
          <CardDescription>How the player behaves in this server.</CardDescription>
        </CardHeader>
        <CardContent className="stack">
          <div className="form-grid">
            <Field
              label={MUSIC_SETTING_LABELS.musicDjRoleId}
              hint="Members with it skip, stop and reorder without a vote. Empty: admins only."
              error={errors.musicDjRoleId}
            >
              {(ids) => (
                <RolePicker
                  {...ids}
                  value={draft.musicDjRoleId}
                  onChange={(musicDjRoleId) => update({ musicDjRoleId })}
                  directory={directory}
                  assignableOnly={false}
                  disabled={readOnly}
                />
              )}
            </Field>
            {NUMBER_FIELDS.map((field) => (
              <Field key={field.key} label={MUSIC_SETTING_LABELS[field.key]} hint={field.hint(draft)} error={errors[field.key]}>
                {(ids) => (
                  <Input
                    {...ids}
                    type="number"
                    inputMode={field.step < 1 ? 'decimal' : 'numeric'}
                    min={field.min}
                    max={field.max}
                    step={field.step}
                    value={draft[field.key]}
                    onChange={(event) => update({ [field.key]: event.target.value })}
                    disabled={readOnly}
                  />
                )}
              </Field>
            ))}
            <Field
              label={MUSIC_SETTING_LABELS.musicRadioChannelId}
              hint="A voice channel the bot plays the radio in around the clock, and never leaves for being alone."
              error={errors.musicRadioChannelId}
            >
              {(ids) => (
                <VoiceChannelPicker
                  {...ids}
                  value={draft.musicRadioChannelId}
                  onChange={(musicRadioChannelId) => update({ musicRadioChannelId })}
                  directory={directory}
                  disabled={readOnly}
                />
              )}
            </Field>
            <Field
              label={MUSIC_SETTING_LABELS.musicRadioStationId}
              hint="The saved station the bot plays in the radio channel whenever nothing else plays."
              error={errors.musicRadioStationId}
            >
              {(ids) => (
                <Combobox
                  {...ids}
                  value={draft.musicRadioStationId === null ? null : String(draft.musicRadioStationId)}
                  onChange={(value) => update({ musicRadioStationId: value === null ? null : Number(value) })}
                  options={(stations.data ?? []).map((station) => ({ value: String(station.id), label: station.name }))}
                  allowNone
                  placeholder="Pick a station"
                  searchPlaceholder="Search stations"
                  emptyText="No saved station matches. Add stations below."
                  disabled={readOnly}
                />
              )}
            </Field>
            <Field
              label={MUSIC_SETTING_LABELS.musicAnnounceChannelId}
              hint="Where the bot posts each track as it starts. Empty: not posted."
              error={errors.musicAnnounceChannelId}
            >
              {(ids) => (
                <ChannelPicker
                  {...ids}
                  value={draft.musicAnnounceChannelId}
                  onChange={(musicAnnounceChannelId) => update({ musicAnnounceChannelId })}
                  directory={directory}
                  disabled={readOnly}
                />
              )}
            </Field>
          </div>
        </CardContent>
      </Card>
      {readOnly ? null : <SaveBar dirty={form.dirty} saving={form.saving} onDiscard={form.discard} saveLabel="Save Settings" />}
    </SettingsForm>
  );
}
