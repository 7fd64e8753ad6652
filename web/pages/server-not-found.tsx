// What a server route shows for an id the user cannot open: not a Discord id at all, none of
// their servers, or one of their servers without the bot. Each says so plainly and leads back
// to My Servers; nothing is retried and the id is not remembered as the current server.
import { Bot, SearchX } from 'lucide-react';
import type { Server } from '../../src/shared/auth';
import { useMeta } from '../api/queries';
import { AddBotLink } from '../components/add-bot-link';
import { MyServersLink } from '../components/my-servers-link';
import { useDocumentTitle } from '../components/use-document-title';
import { Card } from '../components/ui/card';
import { EmptyState } from '../components/ui/empty-state';

/** Why a server route cannot open. */
export type ServerProblem = { kind: 'invalid' | 'missing'; serverId: string } | { kind: 'no-bot'; server: Server };

/** The sentence for each problem. */
function explain(problem: ServerProblem): { title: string; description: string } {
  switch (problem.kind) {
    case 'invalid':
      return {
        title: 'Server Not Found',
        description: `“${problem.serverId}” is not a valid server id: a Discord server id is a number of 15 to 21 digits.`,
      };
    case 'missing':
      return {
        title: 'Server Not Found',
        description:
          `None of your servers has the id ${problem.serverId}. It may have been deleted, the bot may have left it, or you may no longer ` +
          `have the Manage Server permission there.`,
      };
    case 'no-bot':
      return {
        title: 'Bot Missing',
        description: `The bot is not in ${problem.server.name} yet. Add it to manage this server here.`,
      };
  }
}

/** The screen in place of a server page. */
export function ServerNotFound({ problem }: { problem: ServerProblem }) {
  const meta = useMeta();
  const { title, description } = explain(problem);
  useDocumentTitle(title);
  return (
    <Card>
      <EmptyState
        icon={problem.kind === 'no-bot' ? Bot : SearchX}
        tone={problem.kind === 'no-bot' ? 'neutral' : 'danger'}
        heading="h1"
        title={title}
        description={description}
        actions={
          <>
            {problem.kind === 'no-bot' ? <AddBotLink meta={meta.data} server={problem.server} /> : null}
            <MyServersLink variant={problem.kind === 'no-bot' ? 'outline' : 'primary'} />
          </>
        }
      />
    </Card>
  );
}
