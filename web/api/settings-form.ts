// The editable copy of a slice of a guild's settings, as the Welcome, Rule Verification and other
// pages use it: a draft that follows the server's settings, a save with the spec's toasts, the
// server's field errors under the fields, and the reads the save may change refreshed.
import type { QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { SettingsUpdate, SettingsView } from '../../src/shared/settings';
import { toast, type ToastInput } from '../state/toasts';
import { ApiRequestError, queryClient } from './client';
import { guildKeys, saveSettings } from './guild';
import { useGuildMutation } from './mutations';

/** What useSettingsForm needs. */
export interface SettingsFormOptions<D> {
  guildId: string;
  view: SettingsView;
  draftOf: (view: SettingsView) => D;
  bodyOf: (draft: D) => SettingsUpdate;
  success: ToastInput;
  failure: ToastInput;
  /** A check before sending (spec section 5's "Missing Channel"): its toast and field errors, or null to send. */
  precheck?: (draft: D) => { notice: ToastInput; fields: Record<string, string> } | null;
  /** Reads a save may change besides the settings (diagnostics are always refreshed). */
  invalidate?: readonly QueryKey[];
}

/** A settings form's state and actions. */
export function useSettingsForm<D>({ guildId, view, draftOf, bodyOf, success, failure, precheck, invalidate = [] }: SettingsFormOptions<D>) {
  const [draft, setDraft] = useState<D>(() => draftOf(view));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A save elsewhere (another tab of the page, a restore) loads new settings: the form follows them.
  useEffect(() => setDraft(draftOf(view)), [view, draftOf]);
  const mutation = useGuildMutation({
    request: () => saveSettings(guildId, bodyOf(draft)),
    invalidate: [guildKeys.diagnostics(guildId), ...invalidate],
    success,
    failure: (error) => ({ ...failure, description: error instanceof ApiRequestError && error.body ? error.body.message : failure.description }),
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(guildKeys.settings(guildId), saved);
    },
  });
  return {
    draft,
    errors,
    dirty: JSON.stringify(draft) !== JSON.stringify(draftOf(view)),
    saving: mutation.isPending,
    update: (patch: Partial<D>) => setDraft((current) => ({ ...current, ...patch })),
    discard: () => {
      setDraft(draftOf(view));
      setErrors({});
    },
    save: () => {
      const blocked = precheck?.(draft);
      if (blocked) {
        setErrors(blocked.fields);
        toast({ ...blocked.notice, variant: 'destructive' });
        return;
      }
      mutation.mutate(undefined, { onError: (error) => setErrors(error instanceof ApiRequestError ? (error.body?.fields ?? {}) : {}) });
    },
  };
}
