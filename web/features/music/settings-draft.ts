// The music settings form: its editable copy (numbers as typed), the PUT body, and the form's state
// as every settings page keeps it (web/api/settings-form.ts, saving to PUT /music/settings).
import type { MusicSettings, MusicSettingsView } from '../../../src/shared/music';
import { useSettingsForm } from '../../api/settings-form';
import { parseDecimal, parseWhole } from '../../numbers';
import { musicKeys, saveMusicSettings } from './api';

/** The form's copy: ids as they are, numbers as the text typed. */
export type MusicDraft = {
  [K in keyof MusicSettings]: MusicSettings[K] extends number ? string : MusicSettings[K];
};

/** The form filled from the server's settings. */
export function draftOf(view: MusicSettingsView): MusicDraft {
  return {
    musicDjRoleId: view.musicDjRoleId,
    musicVoteSkipRatio: String(view.musicVoteSkipRatio),
    musicMaxQueueLength: String(view.musicMaxQueueLength),
    musicPerMemberQueueLimit: String(view.musicPerMemberQueueLimit),
    musicMaxTrackSeconds: String(view.musicMaxTrackSeconds),
    musicDefaultVolume: String(view.musicDefaultVolume),
    musicLeaveWhenAloneSeconds: String(view.musicLeaveWhenAloneSeconds),
    musicRadioChannelId: view.musicRadioChannelId,
    musicRadioStationId: view.musicRadioStationId,
    musicAnnounceChannelId: view.musicAnnounceChannelId,
  };
}

/** The PUT body of a draft (spec section 5's parsing: 0 for text that is no number; the server names the field). */
export function bodyOf(draft: MusicDraft): MusicSettings {
  return {
    musicDjRoleId: draft.musicDjRoleId,
    musicVoteSkipRatio: parseDecimal(draft.musicVoteSkipRatio),
    musicMaxQueueLength: parseWhole(draft.musicMaxQueueLength),
    musicPerMemberQueueLimit: parseWhole(draft.musicPerMemberQueueLimit),
    musicMaxTrackSeconds: parseWhole(draft.musicMaxTrackSeconds),
    musicDefaultVolume: parseWhole(draft.musicDefaultVolume),
    musicLeaveWhenAloneSeconds: parseWhole(draft.musicLeaveWhenAloneSeconds),
    musicRadioChannelId: draft.musicRadioChannelId,
    musicRadioStationId: draft.musicRadioStationId,
    musicAnnounceChannelId: draft.musicAnnounceChannelId,
  };
}

/** The music settings form's state and actions, over the settings the page loaded (web/api/settings-form.ts, on PUT /music/settings). */
export function useMusicSettingsForm(guildId: string, view: MusicSettingsView) {
  return useSettingsForm<MusicDraft, MusicSettingsView, MusicSettings>({
    guildId,
    view,
    draftOf,
    bodyOf,
    endpoint: { key: musicKeys.settings(guildId), save: saveMusicSettings },
    success: { title: 'Settings Saved', description: 'Music settings have been updated successfully.' },
    failure: { title: 'Save Failed', description: 'Failed to save the music settings.' },
  });
}
