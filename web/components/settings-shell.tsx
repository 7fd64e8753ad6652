// The frame of a page that edits a guild's settings: the header, a skeleton while the settings
// load, an error card with Try again, a read-only notice for viewers, and the save bar.
import { useQuery } from '@tanstack/react-query';
import { Eye, Save, Undo2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { atLeast } from '../../src/shared/access';
import type { SettingsView } from '../../src/shared/settings';
import { hasStatus, isRetryable } from '../api/client';
import { settingsQuery } from '../api/guild';
import { useServerName } from '../api/queries';
import { ErrorCard } from './error-card';
import { MyServersLink } from './my-servers-link';
import { PageHeader } from './page-header';
import { PageSkeleton } from './page-skeleton';
import { Button } from './ui/button';

/** What a settings page's body receives. */
export interface SettingsBodyProps {
  guildId: string;
  view: SettingsView;
  serverName: string;
  readOnly: boolean;
}

/** Props of SettingsShell. */
export interface SettingsShellProps {
  title: string;
  description: string;
  children: (props: SettingsBodyProps) => ReactNode;
}

/** Loads the settings of the route's server and renders the page's body with them. */
export function SettingsShell({ title, description, children }: SettingsShellProps) {
  const { serverId = '' } = useParams();
  const serverName = useServerName(serverId);
  const settings = useQuery(settingsQuery(serverId));
  const readOnly = settings.data ? !atLeast(settings.data.access, 'edit') : true;
  return (
    <>
      <PageHeader title={title} serverName={serverName} description={description} />
      {settings.isPending ? (
        <PageSkeleton />
      ) : settings.isError ? (
        <ErrorCard
          title={hasStatus(settings.error, 403) ? 'Access Denied' : 'Could not load the settings'}
          error={settings.error}
          actions={
            isRetryable(settings.error) ? (
              <Button variant="outline" onClick={() => void settings.refetch()}>
                Try again
              </Button>
            ) : (
              <MyServersLink />
            )
          }
        />
      ) : (
        <>
          {readOnly ? (
            <p className="notice notice-info" role="status">
              <Eye size={16} aria-hidden="true" /> You have view access to this dashboard: settings are shown read-only.
            </p>
          ) : null}
          {children({ guildId: serverId, view: settings.data, serverName: serverName ?? '', readOnly })}
        </>
      )}
    </>
  );
}

/** Props of SaveBar. */
export interface SaveBarProps {
  dirty: boolean;
  saving: boolean;
  onDiscard: () => void;
  /** The save button's words (spec: 'Save Settings' or 'Save Changes'). */
  saveLabel: string;
  /** More buttons before Discard (Test Message). */
  extra?: ReactNode;
}

/** Unsaved-changes text, the page's extra actions, Discard and Save (a submit button of the page's form). */
export function SaveBar({ dirty, saving, onDiscard, saveLabel, extra }: SaveBarProps) {
  return (
    <div className="save-bar">
      <span className="muted small" aria-live="polite">
        {dirty ? 'You have unsaved changes.' : 'All changes saved.'}
      </span>
      {extra}
      <Button variant="outline" onClick={onDiscard} disabled={!dirty || saving}>
        <Undo2 size={16} aria-hidden="true" /> Discard
      </Button>
      <Button type="submit" disabled={saving}>
        <Save size={16} aria-hidden="true" /> {saving ? 'Saving…' : saveLabel}
      </Button>
    </div>
  );
}

/** Props of SettingsForm. */
export interface SettingsFormProps {
  /** The form's accessible name: "Welcome settings". */
  label: string;
  onSave: () => void;
  children: ReactNode;
}

/** A settings page's form: Enter or Save submits; the server names each bad field (the browser's bubbles would hide its words). */
export function SettingsForm({ label, onSave, children }: SettingsFormProps) {
  return (
    <form
      className="stack"
      aria-label={label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      {children}
    </form>
  );
}
