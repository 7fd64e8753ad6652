// /appeal/:guildId/:userId signed in: the banned member's appeal of their ban. Only that member
// sees it (anyone else reads the server's refusal in words, and may sign out to switch account);
// it shows the server, the ban's reason and date, the server's words, then the form (20 to 2000
// characters) or what became of the appeal: waiting, accepted (the ban is lifted) or denied with
// the moderators' reason.
import { useSignals } from '@preact/signals-react/runtime';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckCircle2, Clock, Gavel, LogOut, Send, ShieldX, XCircle } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { APPEAL_TEXT_LIMITS, type MemberAppealView } from '../../../src/shared/appeals';
import { logout } from '../../api/auth';
import { ApiRequestError, errorMessage, queryClient } from '../../api/client';
import { Field } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Skeleton } from '../../components/ui/skeleton';
import { Textarea } from '../../components/ui/textarea';
import { formatDateTime } from '../../format';
import { sessionUser } from '../../state/session';
import { toast } from '../../state/toasts';
import { AppealLayout } from './appeal-layout';
import { appealKeys, memberAppealQuery, submitAppeal } from './api';

/** Who is signed in, and a way to switch account (the page stays: signed out, it offers the sign-in). */
function SignedInAs() {
  useSignals();
  const [leaving, setLeaving] = useState(false);
  return (
    <p className="muted small row">
      <span className="grow">Signed in as {sessionUser.value?.username ?? 'you'}.</span>
      <Button
        variant="ghost"
        size="sm"
        disabled={leaving}
        onClick={() => {
          setLeaving(true);
          void logout().finally(() => setLeaving(false));
        }}
      >
        <LogOut size={14} aria-hidden="true" /> Sign out
      </Button>
    </p>
  );
}

/** What became of the member's latest appeal. */
function Outcome({ view }: { view: MemberAppealView }) {
  const appeal = view.appeal;
  if (!appeal) return null;
  const sent = `You appealed on ${formatDateTime(appeal.createdAt)}.`;
  const decided = appeal.decidedAt ? ` on ${formatDateTime(appeal.decidedAt)}` : '';
  const reason = appeal.decisionReason ? ` Reason: ${appeal.decisionReason}` : '';
  const box: Record<typeof appeal.status, { tone: string; icon: ReactNode; text: string }> = {
    open: { tone: 'notice-info', icon: <Clock size={16} aria-hidden="true" />, text: `${sent} The moderators have not decided yet.` },
    accepted: {
      tone: 'notice-success',
      icon: <CheckCircle2 size={16} aria-hidden="true" />,
      text: `Your appeal was accepted${decided} and your ban was lifted: you can join the server again with an invite.${reason}`,
    },
    denied: { tone: 'notice-danger', icon: <XCircle size={16} aria-hidden="true" />, text: `Your appeal was denied${decided}.${reason}` },
  };
  const shown = box[appeal.status];
  return (
    <div className="stack-sm">
      <p className={`notice ${shown.tone}`} role="status">
        {shown.icon}
        <span>{shown.text}</span>
      </p>
      <details>
        <summary className="muted small">What you wrote</summary>
        <blockquote className="report-quote">{appeal.text}</blockquote>
      </details>
    </div>
  );
}

/** The appeal's form. */
function AppealForm({ guildId, userId }: { guildId: string; userId: string }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const send = useMutation({
    mutationFn: (body: string) => submitAppeal(guildId, userId, { text: body }),
    onSuccess: async () => {
      toast({ title: 'Appeal sent', description: 'The moderators have your appeal. You are told by DM when they decide, and this page shows it.' });
      await queryClient.invalidateQueries({ queryKey: appealKeys.member(guildId, userId) });
    },
    onError: (failed) => setError(failed instanceof ApiRequestError ? (failed.body?.fields?.text ?? failed.body?.message) : errorMessage(failed)),
  });
  const length = text.trim().length;
  const submit = () => {
    if (length < APPEAL_TEXT_LIMITS.min) return setError(`Write at least ${APPEAL_TEXT_LIMITS.min} characters.`);
    setError(undefined);
    send.mutate(text);
  };
  return (
    <form
      className="stack-sm"
      aria-label="Appeal form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Field
        label="Your appeal"
        error={error}
        hint={`Why should the ban be lifted? ${length} of ${APPEAL_TEXT_LIMITS.max} characters (at least ${APPEAL_TEXT_LIMITS.min}).`}
      >
        {(ids) => <Textarea {...ids} rows={8} maxLength={APPEAL_TEXT_LIMITS.max} value={text} onChange={(event) => setText(event.target.value)} />}
      </Field>
      <div className="row">
        <Button type="submit" disabled={send.isPending}>
          <Send size={16} aria-hidden="true" /> {send.isPending ? 'Sending…' : 'Send appeal'}
        </Button>
      </div>
    </form>
  );
}

/** The ban and the appeal, once loaded. */
function AppealCard({ view, userId }: { view: MemberAppealView; userId: string }) {
  return (
    <Card>
      <CardHeader>
        <h1 className="card-title appeal-title">Appeal your ban from {view.guildName}</h1>
        <CardDescription>
          Banned on {formatDateTime(view.bannedAt)} (case #{view.caseNumber}). Reason: {view.reason ?? 'none given'}
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        {view.intro ? <p className="appeal-intro">{view.intro}</p> : null}
        <Outcome view={view} />
        {view.canAppeal ? (
          <AppealForm guildId={view.guildId} userId={userId} />
        ) : view.notice && view.appeal?.status !== 'open' && view.appeal?.status !== 'accepted' ? (
          <p className="notice notice-info" role="status">
            {view.notice}
          </p>
        ) : null}
        <SignedInAs />
      </CardContent>
    </Card>
  );
}

/** The appeal page. */
export default function AppealPage() {
  const { guildId = '', userId = '' } = useParams();
  const appeal = useQuery(memberAppealQuery(guildId, userId));
  let body: ReactNode;
  if (appeal.isPending) {
    body = (
      <Card role="status" aria-busy="true" aria-label="Loading the appeal">
        <CardContent className="stack">
          <Skeleton height="2rem" width="70%" />
          <Skeleton height="1rem" width="50%" />
          <Skeleton height="10rem" />
        </CardContent>
      </Card>
    );
  } else if (appeal.isError) {
    const status = appeal.error instanceof ApiRequestError ? appeal.error.status : 0;
    const refused = status === 403 || status === 404 || status === 400;
    body = (
      <Card>
        <EmptyState
          icon={status === 403 ? ShieldX : Gavel}
          heading="h1"
          tone={refused ? 'neutral' : 'danger'}
          title={status === 403 ? 'Not your appeal' : status === 404 || status === 400 ? 'Nothing to appeal' : 'Could not load the appeal'}
          description={errorMessage(appeal.error)}
          actions={
            refused ? (
              <SignedInAs />
            ) : (
              <Button variant="outline" onClick={() => void appeal.refetch()}>
                Try again
              </Button>
            )
          }
        />
      </Card>
    );
  } else {
    body = <AppealCard view={appeal.data} userId={userId} />;
  }
  return <AppealLayout>{body}</AppealLayout>;
}
