// Live updates: one EventSource per tab for the server on screen (GET /api/servers/:id/events),
// shared by every page of it. A notice names what changed; the matching reads are invalidated, so
// the pages showing them read again through their usual routes. When the stream cannot be had
// (no EventSource, or it fails again and again) the reads of the server are refreshed on a timer
// instead, and the stream is tried again now and then; nothing on screen says so.
import { useEffect } from 'react';
import { LIVE_EVENTS, LIVE_POLL_MS, LIVE_TOPICS, LiveEndSchema, LiveNoticeSchema, type LiveTopic } from '../../src/shared/live';
import { queryClient } from './client';
import { guildApi, guildKeys } from './guild';

/** The reads (query keys under the server's) each topic changes. */
const SEGMENTS: Record<LiveTopic, readonly string[]> = {
  overview: ['overview'],
  'moderation-log': ['moderation'],
  reports: ['moderation'],
  'reaction-roles': ['reaction-roles'],
  announcements: ['announcements'],
  music: ['music'],
  settings: ['settings', 'diagnostics'],
};

/** Errors in a row, without the stream opening in between, before the pages poll instead. */
const FAILURES_BEFORE_POLLING = 3;
/** How long polling lasts before the stream is tried again. */
const RETRY_STREAM_MS = 60_000;

/** The stream's state, on <html data-live>: for tests to wait on, never shown. */
export type LiveState = 'connecting' | 'open' | 'polling' | 'ended';

function setState(state: LiveState): void {
  document.documentElement.dataset.live = state;
}

/** Reads again what `topics` change in the server (only the reads on screen refetch; others are marked stale). */
function refresh(guildId: string, topics: readonly LiveTopic[]): void {
  const segments = new Set(topics.flatMap((topic) => SEGMENTS[topic]));
  for (const segment of segments) void queryClient.invalidateQueries({ queryKey: [...guildKeys.all(guildId), segment] });
}

/** Follows one server's changes until the returned function is called. */
function follow(guildId: string): () => void {
  let source: EventSource | null = null;
  let failures = 0;
  let poll: number | undefined;
  let retry: number | undefined;
  let stopped = false;

  const stopPolling = () => {
    window.clearInterval(poll);
    window.clearTimeout(retry);
    poll = undefined;
    retry = undefined;
  };
  const startPolling = () => {
    setState('polling');
    poll ??= window.setInterval(() => refresh(guildId, LIVE_TOPICS), LIVE_POLL_MS);
    if (typeof EventSource !== 'undefined') retry = window.setTimeout(open, RETRY_STREAM_MS);
  };
  const close = () => {
    source?.close();
    source = null;
  };

  function open() {
    if (stopped) return;
    window.clearTimeout(retry);
    if (typeof EventSource === 'undefined') return startPolling();
    setState('connecting');
    const current = new EventSource(`${guildApi(guildId)}/events`);
    source = current;
    current.onopen = () => {
      setState('open');
      // Back after a gap (a dropped connection, a spell of polling): what changed meanwhile is read now.
      if (failures > 0 || poll !== undefined) refresh(guildId, LIVE_TOPICS);
      failures = 0;
      stopPolling();
    };
    current.addEventListener(LIVE_EVENTS.change, (event) => {
      const notice = LiveNoticeSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (notice.success) refresh(guildId, [notice.data.topic]);
    });
    current.addEventListener(LIVE_EVENTS.ended, (event) => {
      const end = LiveEndSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      // A restart: the browser reconnects by itself. Access or the session gone: the pages read
      // again, and say what their routes now answer (the refusal, or the sign-in page).
      if (!end.success || end.data.reason === 'shutdown') return;
      close();
      setState('ended');
      void queryClient.invalidateQueries({ queryKey: guildKeys.all(guildId) });
    });
    current.onerror = () => {
      failures += 1;
      // CLOSED: refused (not an event stream); else the browser is reconnecting by itself.
      if (current.readyState === EventSource.CLOSED || failures >= FAILURES_BEFORE_POLLING) {
        close();
        startPolling();
      }
    };
  }

  open();
  return () => {
    stopped = true;
    close();
    stopPolling();
    delete document.documentElement.dataset.live;
  };
}

/** The tab's one stream per server, however many components ask for it. */
const following = new Map<string, { users: number; stop: () => void }>();

/** Keeps the pages of `guildId` (none: no server on screen) up to date while mounted. */
export function useLiveUpdates(guildId: string | undefined): void {
  useEffect(() => {
    if (!guildId) return;
    let entry = following.get(guildId);
    if (!entry) following.set(guildId, (entry = { users: 0, stop: follow(guildId) }));
    entry.users += 1;
    const mine = entry;
    return () => {
      mine.users -= 1;
      if (mine.users === 0) {
        mine.stop();
        following.delete(guildId);
      }
    };
  }, [guildId]);
}
