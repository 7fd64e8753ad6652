// Moderation Logs (spec section 2): a search box (reason, target id or name, or '#12' for a case)
// and an action filter, both answered by the server, paged. Each case shows its action badge and
// number, the target ('User #' and the last 4 characters of the id, with name and avatar when
// known; a channel tool's target is the channel: its '#name' and 'Channel #' with the digits), the
// reason, 'By: Moderator #' and the last 4 of the moderator's id, the time, the duration and where
// it came from.
import { useQuery } from '@tanstack/react-query';
import { Hash, Search, ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  CHANNEL_ACTIONS,
  LOG_FILTERS,
  MODERATION_MESSAGES,
  lastFour,
  DURATION_LABELS,
  type LogFilter,
  type ModerationCase,
} from '../../../src/shared/moderation';
import { Link } from 'react-router-dom';
import { Pager } from '../../components/pager';
import { QueryList } from '../../components/query-list';
import { formatNumber } from '../../components/stat-card';
import { Field } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { formatDateTime, formatRelative } from '../../format';
import { LOG_PAGE_SIZE, moderationLogsQuery } from './api';
import { memberPagePath } from './case-api';
import { ACTION_STYLE, SOURCE_LABELS } from './labels';

/** How long typing pauses before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

const FILTER_OPTIONS = LOG_FILTERS.map((filter) => ({ value: filter, label: filter === 'all' ? 'All actions' : ACTION_STYLE[filter].label }));

/** `value`, once it has stopped changing for `delay` ms. */
function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** Whether the case's target is a channel (a channel tool's case), not a member. */
const targetsChannel = (entry: ModerationCase) => (CHANNEL_ACTIONS as readonly string[]).includes(entry.action);

/** The target's avatar, or their initials, or '#' and the last digits; a channel's is a '#'. */
function TargetAvatar({ entry }: { entry: ModerationCase }) {
  const [failed, setFailed] = useState(false);
  if (targetsChannel(entry))
    return (
      <span className="avatar avatar-sm" aria-hidden="true">
        <Hash size={14} />
      </span>
    );
  const fallback = entry.targetName ? entry.targetName.slice(0, 2).toUpperCase() : lastFour(entry.targetId).slice(-2);
  return (
    <span className="avatar avatar-sm" aria-hidden="true">
      {entry.targetAvatarUrl && !failed ? <img src={entry.targetAvatarUrl} alt="" width={24} height={24} onError={() => setFailed(true)} /> : fallback}
    </span>
  );
}

/** What else the case says: its duration, when it ends or was lifted, and whether the DM reached them. */
function caseDetails(entry: ModerationCase): string[] {
  const details: string[] = [];
  if (entry.duration) details.push(`Duration: ${DURATION_LABELS[entry.duration]}`);
  else if (entry.action === 'ban') details.push('Permanent');
  if (entry.liftedAt) details.push(`Lifted ${formatDateTime(entry.liftedAt)}`);
  else if (entry.expiresAt) details.push(`${new Date(entry.expiresAt).getTime() > Date.now() ? 'Ends' : 'Ended'} ${formatDateTime(entry.expiresAt)}`);
  details.push(`via ${SOURCE_LABELS[entry.source]}`);
  if (entry.dmDelivered === true) details.push('DM delivered');
  if (entry.dmDelivered === false) details.push('DM not delivered');
  if (entry.pardonedAt) details.push(`Pardoned (case #${entry.pardonCaseNumber ?? '?'})`);
  if (entry.pardonOf !== null) details.push(`Pardons warning #${entry.pardonOf}`);
  if (entry.edits.length > 0) details.push('Edited');
  return details;
}

/** The target's name, and 'User #' (or 'Channel #') with the last digits of the id. */
function TargetName({ entry }: { entry: ModerationCase }) {
  return (
    <>
      {entry.targetName ? <span className="strong truncate">{entry.targetName}</span> : null}{' '}
      <span className={entry.targetName ? 'muted small' : 'strong'}>
        {targetsChannel(entry) ? 'Channel' : 'User'} #{lastFour(entry.targetId)}
      </span>
    </>
  );
}

/** One case of the log; a member's name opens their record. */
function CaseItem({ guildId, entry }: { guildId: string; entry: ModerationCase }) {
  const style = ACTION_STYLE[entry.action];
  return (
    <li className="history-item case-item" aria-label={`Case #${entry.caseNumber}`}>
      <div className="history-head">
        <Badge tone={style.tone}>{style.label}</Badge>
        <span className="strong mono case-number">#{entry.caseNumber}</span>
        <span className="case-target">
          <TargetAvatar entry={entry} />
          {targetsChannel(entry) ? (
            <TargetName entry={entry} />
          ) : (
            <Link
              className="case-member-link"
              to={memberPagePath(guildId, entry.targetId)}
              aria-label={`${entry.targetName ?? `User #${lastFour(entry.targetId)}`}: their record`}
            >
              <TargetName entry={entry} />
            </Link>
          )}
        </span>
        <time className="muted small case-time" dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)}>
          {formatRelative(entry.createdAt)}
        </time>
      </div>
      <p className="case-reason">{entry.reason ?? <span className="muted">No reason given</span>}</p>
      <p className="muted small">
        By: Moderator #{lastFour(entry.moderatorId)}
        {entry.moderatorName ? ` (${entry.moderatorName})` : ''} · {caseDetails(entry).join(' · ')}
      </p>
    </li>
  );
}

/** The log card. */
export function ModerationLog({ guildId }: { guildId: string }) {
  const [text, setText] = useState('');
  const [action, setAction] = useState<LogFilter>('all');
  const q = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  // A new search or filter starts from the first page: the page belongs to the filter it was chosen under.
  const filterKey = `${action}\u0000${q}`;
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const setPage = (next: number) => setPaging({ filterKey, page: next });
  const logs = useQuery(moderationLogsQuery(guildId, { q, action, page }));
  const total = logs.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LOG_PAGE_SIZE));
  // Cases were deleted or the filter shrank the list: stay on a page that exists.
  // (Adjusted while rendering, as React advises for state that follows new data.)
  if (logs.data && !logs.isPlaceholderData && page > pages) setPage(pages);
  const filtered = q !== '' || action !== 'all';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Moderation Logs</CardTitle>
        <CardDescription>
          Every action, from the dashboard, commands, Discord itself and auto moderation, newest first
          {logs.data && total > 0 ? ` · ${formatNumber(total)} ${filtered ? 'matching' : total === 1 ? 'case' : 'cases'}` : ''}.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <div className="log-filters" role="search" aria-label="Moderation logs">
          <Field label="Search">
            {(ids) => (
              <div className="input-with-icon">
                <Search size={16} aria-hidden="true" />
                <Input
                  {...ids}
                  type="search"
                  value={text}
                  maxLength={100}
                  placeholder="Reason, user ID or name, #12"
                  onChange={(event) => setText(event.target.value)}
                />
              </div>
            )}
          </Field>
          <Field label="Action">
            {(ids) => (
              <Select
                id={ids.id}
                aria-label="Action filter"
                value={action}
                onValueChange={(next) => setAction(LOG_FILTERS.find((filter) => filter === next) ?? 'all')}
                options={FILTER_OPTIONS}
              />
            )}
          </Field>
        </div>
        <QueryList
          query={{ isPending: logs.isPending, isError: logs.isError, error: logs.error, data: logs.data?.entries }}
          what="the moderation logs"
          rowHeight="4.5rem"
          empty={
            filtered
              ? { icon: Search, title: MODERATION_MESSAGES.noMatches, description: 'Try other words, or another action.' }
              : { icon: ShieldCheck, title: MODERATION_MESSAGES.noLogs, description: 'Bans, kicks, timeouts and warnings show here, whoever made them.' }
          }
        >
          {(entries) => (
            <ul className="history-list" aria-label="Moderation cases" aria-busy={logs.isPlaceholderData}>
              {entries.map((entry) => (
                <CaseItem key={entry.id} guildId={guildId} entry={entry} />
              ))}
            </ul>
          )}
        </QueryList>
        <Pager page={page} pages={pages} onPage={setPage} label="Pages of the moderation logs" words={['Newer', 'Older']} loading={logs.isPlaceholderData} />
      </CardContent>
    </Card>
  );
}
