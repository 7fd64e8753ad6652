// The editable copy of a slice of a guild's settings, as every settings page uses it: a draft and
// the settings it is based on, a save that sends only what the person changed with the version
// it is based on (a change someone made meanwhile to other settings is kept; to the same ones, the
// server asks: keep mine, or reload), the spec's toasts, the server's field errors under the
// fields, and the reads the save may change refreshed.
import type { QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import type { SettingsUpdate, SettingsView } from '../../src/shared/settings';
import { toast, type ToastInput } from '../state/toasts';
import { useUnsavedChanges } from '../state/unsaved';
import { ApiRequestError, queryClient, fieldErrorsOf } from './client';
import { changedOnly } from './changes';
import { guildKeys, saveSettings } from './guild';
import { useGuildMutation } from './mutations';

/** Where a slice of the settings is read and saved (a feature's own route, e.g. PUT /music/settings). */
export interface SettingsEndpoint<V, B> {
  key: QueryKey;
  save: (guildId: string, body: Partial<B> & { baseVersion: number }) => Promise<V>;
}

/** What useSettingsForm needs. */
export interface SettingsFormOptions<D, V extends { version: number } = SettingsView, B extends object = SettingsUpdate> {
  guildId: string;
  view: V;
  draftOf: (view: V) => D;
  /** The PUT body of a draft; `view` is the settings the draft is based on. */
  bodyOf: (draft: D, view: V) => B;
  /** PUT /settings when absent. */
  endpoint?: SettingsEndpoint<V, B>;
  success: ToastInput;
  failure: ToastInput;
  /**
   * The failure toast's description is the server's sentence when it sent one (default); false
   * keeps the page's own text, except for a refusal (4xx), which says why in the server's words.
   */
  serverMessage?: boolean;
  /** A check before sending (spec section 5's "Missing Channel"): its toast and field errors, or null to send. */
  precheck?: (draft: D) => { notice: ToastInput; fields: Record<string, string> } | null;
  /** Reads a save may change besides the settings (diagnostics are always refreshed). */
  invalidate?: readonly QueryKey[];
}

/**
 * A settings form's state and actions. The draft follows the server's settings while the person
 * has not edited anything (a save elsewhere shows at once); once they have, it keeps their edits
 * and the version they started from, so the server can tell what changed meanwhile.
 */
export function useSettingsForm<D, V extends { version: number } = SettingsView, B extends object = SettingsUpdate>({
  guildId,
  view,
  draftOf,
  bodyOf,
  endpoint = { key: guildKeys.settings(guildId), save: saveSettings } as unknown as SettingsEndpoint<V, B>,
  success,
  failure,
  serverMessage = true,
  precheck,
  invalidate = [],
}: SettingsFormOptions<D, V, B>) {
  const [base, setBase] = useState(view);
  const [draft, setDraft] = useState<D>(() => draftOf(view));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [seen, setSeen] = useState(view);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(base));
  // Leaving the page (a link, back, reload, closing the tab) asks first while the draft is unsaved.
  useUnsavedChanges(dirty);
  const follow = (next: V) => {
    setBase(next);
    setDraft(draftOf(next));
  };
  // New settings from the server (adjusted while rendering, as React advises for state that
  // follows a prop): followed unless the person has edited; an edit must not pull the draft back.
  if (view !== seen) {
    setSeen(view);
    if (!dirty) follow(view);
  }
  const settingsKey = endpoint.key;
  const mutation = useGuildMutation({
    request: () => {
      const body = bodyOf(draft, base);
      const changes = changedOnly(body, bodyOf(draftOf(base), base));
      // Saved unchanged (to post the rules message again), the page's settings go as they are.
      return endpoint.save(guildId, { ...(Object.keys(changes).length > 0 ? changes : body), baseVersion: base.version });
    },
    invalidate: [settingsKey, guildKeys.diagnostics(guildId), ...invalidate],
    success,
    failure: serverMessage
      ? (error) => ({ ...failure, description: error instanceof ApiRequestError && error.body ? error.body.message : failure.description })
      : failure,
    onSuccess: (saved) => {
      setErrors({});
      queryClient.setQueryData(settingsKey, saved);
      follow(saved);
    },
    onReload: () => {
      const fresh = queryClient.getQueryData<V>(settingsKey);
      setErrors({});
      if (fresh) follow(fresh);
    },
  });
  return {
    draft,
    errors,
    dirty,
    saving: mutation.isPending,
    update: (patch: Partial<D>) => setDraft((current) => ({ ...current, ...patch })),
    discard: () => {
      follow(view);
      setErrors({});
    },
    save: () => {
      const blocked = precheck?.(draft);
      if (blocked) {
        setErrors(blocked.fields);
        toast({ ...blocked.notice, variant: 'destructive' });
        return;
      }
      // Cleared while it is sent: the answer's errors are shown anew, and the page goes to the first of them.
      setErrors({});
      mutation.mutate(undefined, { onError: (error) => setErrors(fieldErrorsOf(error)) });
    },
  };
}
