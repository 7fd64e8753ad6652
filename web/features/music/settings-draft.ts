// The music settings form: its editable copy (numbers as typed), the PUT body, and the form's state
// as every settings page keeps it (web/api/settings-form.ts): the draft follows the server until
// edited, a save sends only what changed with the version it is based on (a change someone made
// meanwhile to the same setting makes the server ask: keep mine, or reload), field errors under fields.
import { useState } from 'react';
import type { MusicSettings, MusicSettingsView } from '../../../src/shared/music';
import { ApiRequestError, queryClient } from '../../api/client';
import { changedOnly } from '../../api/changes';
import { useGuildMutation } from '../../api/mutations';
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

/** The music settings form's state and actions, over the settings the page loaded. */
export function useMusicSettingsForm(guildId: string, view: MusicSettingsView) {
  const [base, setBase] = useState(view);
  const [draft, setDraft] = useState(() => draftOf(view));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [seen, setSeen] = useState(view);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(base));
  const follow = (next: MusicSettingsView) => {
    setBase(next);
    setDraft(draftOf(next));
  };
  // New settings from the server: followed unless the person has edited (an edit is never pulled back).
  if (view !== seen) {
    setSeen(view);
    if (!dirty) follow(view);
  }
  const key = musicKeys.settings(guildId);
  const mutation = useGuildMutation({
    request: () => saveMusicSettings(guildId, { ...changedOnly(bodyOf(draft), bodyOf(draftOf(base))), baseVersion: base.version }),
    invalidate: [key],
    success: { title: 'Settings Saved', description: 'Music settings have been updated successfully.' },
    failure: (error) => ({
      title: 'Save Failed',
      description: error instanceof ApiRequestError && error.body ? error.body.message : 'Failed to save the music settings.',
    }),
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(key, saved);
      follow(saved);
    },
    onReload: () => {
      const fresh = queryClient.getQueryData<MusicSettingsView>(key);
      setErrors({});
      if (fresh) follow(fresh);
    },
  });
  return {
    draft,
    errors,
    dirty,
    saving: mutation.isPending,
    update: (patch: Partial<MusicDraft>) => setDraft((current) => ({ ...current, ...patch })),
    discard: () => {
      follow(view);
      setErrors({});
    },
    save: () => mutation.mutate(undefined, { onError: (error) => setErrors(error instanceof ApiRequestError ? (error.body?.fields ?? {}) : {}) }),
  };
}
