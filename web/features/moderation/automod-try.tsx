// "Try these rules" (issue 24, point 5), at the foot of the auto moderation card: the rules as
// edited (not yet saved) replayed on a channel's latest messages, by the server's own engine, and
// the messages each rule would have acted on, highlighted with what it would have done. Nothing is
// deleted or recorded. The server checks that the moderator and the bot can read the channel.
import { useMutation, useQuery } from '@tanstack/react-query';
import { CircleCheck, FlaskConical } from 'lucide-react';
import { useState } from 'react';
import {
  AUTOMOD_TRY_LIMITS,
  AutomodTryResultSchema,
  automodTryNone,
  automodTrySummary,
  type AutomodTryInput,
  type AutomodTryResult,
} from '../../../src/shared/automod-try';
import { AUTOMOD_RULE_NAMES } from '../../../src/shared/moderation';
import { ApiRequestError, apiRequest, errorMessage } from '../../api/client';
import { directoryQuery, guildApi } from '../../api/guild';
import { ChannelPicker, Field } from '../../components/form';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { Switch } from '../../components/ui/switch';
import { rulesBodyOf, type Draft } from './draft';

/** POST /moderation/automod/try. */
async function tryRules(guildId: string, input: AutomodTryInput): Promise<AutomodTryResult> {
  return AutomodTryResultSchema.parse(await apiRequest('POST', `${guildApi(guildId)}/moderation/automod/try`, input));
}

const COUNT_OPTIONS = AUTOMOD_TRY_LIMITS.choices.map((count) => ({ value: String(count), label: `Last ${count} messages` }));

/** The server's refusal in words: each field it refused is named in its sentence. */
function refusalOf(error: unknown): string {
  if (!(error instanceof ApiRequestError) || !error.body?.fields) return errorMessage(error);
  return `Fix the rules first. ${Object.values(error.body.fields).join(' ')}`;
}

const timeOf = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

/** The results: the messages acted on (or all of them), each with its author, time, text and what would have happened. */
function Results({ result, showAll }: { result: AutomodTryResult; showAll: boolean }) {
  const shown = showAll ? result.messages : result.messages.filter((message) => message.hits.length > 0);
  const anyHit = result.messages.some((message) => message.hits.length > 0);
  if (!anyHit && !showAll) return <EmptyState icon={CircleCheck} title={automodTryNone(result.scanned)} heading="h2" className="try-empty" />;
  return (
    <ol className="try-list" aria-label="Messages tried">
      {shown.map((message) => {
        const hit = message.hits[0];
        return (
          <li key={message.id} className={hit ? 'try-item try-hit' : 'try-item'}>
            <div className="try-meta">
              <strong>{message.authorName}</strong>
              <time className="muted small" dateTime={message.createdAt}>
                {timeOf(message.createdAt)}
              </time>
            </div>
            <p className="try-excerpt">{message.excerpt}</p>
            {hit ? (
              <p className="try-verdict">
                <span className="try-rule">{AUTOMOD_RULE_NAMES[hit.rule]}:</span> {hit.what}
              </p>
            ) : (
              <p className="muted small">No rule would act on it.</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** The try section: channel, how many messages, the button, and what came back. */
export function AutomodTry({ guildId, draft, readOnly }: { guildId: string; draft: Draft; readOnly: boolean }) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const [channelId, setChannelId] = useState<string | null>(null);
  const [count, setCount] = useState<number>(AUTOMOD_TRY_LIMITS.default);
  const [showAll, setShowAll] = useState(false);
  const [triedWith, setTriedWith] = useState<string | null>(null);
  const attempt = useMutation({ mutationFn: (input: AutomodTryInput) => tryRules(guildId, input) });
  const input = (id: string): AutomodTryInput => ({ rules: rulesBodyOf(draft), includeStaff: draft.automodIncludeStaff, channelId: id, limit: count });
  const current = channelId ? JSON.stringify(input(channelId)) : null;
  const run = () => {
    if (!channelId) return;
    setTriedWith(current);
    attempt.mutate(input(channelId));
  };
  const result = attempt.data;
  const anyOn = Object.values(draft.automodRules).some((rule) => rule.enabled);
  return (
    <section className="try-section stack" aria-labelledby="automod-try-title">
      <div className="switch-row-text">
        <h3 id="automod-try-title" className="title-with-icon try-title">
          <FlaskConical size={16} aria-hidden="true" /> Try these rules
        </h3>
        <p className="muted small">
          Replays the rules as set above, before you save them, on a channel's latest messages, and shows which messages each rule would have acted on. Nothing
          is deleted or recorded.
        </p>
      </div>
      <div className="form-grid">
        <Field label="Channel to try them on">
          {(ids) => <ChannelPicker {...ids} directory={directory} value={channelId} onChange={setChannelId} allowNone={false} disabled={readOnly} />}
        </Field>
        <Field label="How many messages">
          {(ids) => <Select id={ids.id} value={String(count)} onValueChange={(value) => setCount(Number(value))} options={COUNT_OPTIONS} disabled={readOnly} />}
        </Field>
      </div>
      <div className="row">
        <Button variant="secondary" onClick={run} disabled={readOnly || !channelId || !anyOn || attempt.isPending}>
          <FlaskConical size={16} aria-hidden="true" /> {attempt.isPending ? 'Trying…' : 'Try these rules'}
        </Button>
        {!anyOn ? <span className="muted small">Turn a rule on above to try it.</span> : null}
        {result ? (
          <span className="row">
            <Switch id="automod-try-all" checked={showAll} onCheckedChange={setShowAll} />
            <label htmlFor="automod-try-all" className="small">
              Show every message read
            </label>
          </span>
        ) : null}
      </div>
      <div aria-live="polite" aria-busy={attempt.isPending} className="stack">
        {attempt.isPending ? (
          <div className="try-list">
            {[0, 1, 2].map((row) => (
              <div key={row} className="try-item">
                <Skeleton width="30%" height="0.9rem" />
                <Skeleton width="85%" height="0.9rem" />
              </div>
            ))}
          </div>
        ) : attempt.error ? (
          <p className="notice notice-danger" role="alert">
            {refusalOf(attempt.error)}
          </p>
        ) : result ? (
          <>
            <p className="try-summary">
              {automodTrySummary(result, result.channelName)}
              {result.skipped ? ` ${result.skipped} from bots or Discord itself were not judged, as auto moderation never judges them.` : ''}
            </p>
            {triedWith !== null && current !== null && triedWith !== current ? (
              <p className="notice notice-info small">The rules or the channel changed since this try: try again to see what they would do now.</p>
            ) : null}
            <Results result={result} showAll={showAll} />
          </>
        ) : null}
      </div>
    </section>
  );
}
