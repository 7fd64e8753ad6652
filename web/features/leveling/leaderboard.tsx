// The leaderboard card: members by total XP, ten a page, with Previous/Next and "Page x of y".
import { useQuery } from '@tanstack/react-query';
import { Trophy } from 'lucide-react';
import { useState } from 'react';
import { QueryList } from '../../components/query-list';
import { formatNumber } from '../../components/stat-card';
import { Badge } from '../../components/ui/badge';
import { Pager } from '../../components/pager';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { LEADERBOARD_PAGE_SIZE, leaderboardQuery } from './api';

/** The leaderboard, one page at a time. */
export function Leaderboard({ guildId }: { guildId: string }) {
  const [page, setPage] = useState(1);
  const board = useQuery(leaderboardQuery(guildId, page));
  const total = board.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LEADERBOARD_PAGE_SIZE));
  // Members left or were reset since the page was opened: stay on a page that exists.
  // (Adjusted while rendering, as React advises for state that follows new data.)
  if (board.data && !board.isPlaceholderData && page > pages) setPage(pages);
  const entries = { isPending: board.isPending, isError: board.isError, error: board.error, data: board.data?.entries };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Leaderboard</CardTitle>
        <CardDescription>Members by total XP{total > 0 ? ` · ${formatNumber(total)} ranked` : ''}.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <QueryList
          query={entries}
          what="the leaderboard"
          empty={{ icon: Trophy, title: 'No one has earned XP yet', description: 'Members show here once they chat in the server.' }}
        >
          {(rows) => (
            <div className="table-wrap" aria-busy={board.isPlaceholderData}>
              <table className="table">
                <caption className="sr-only">
                  Leaderboard, page {page} of {pages}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Rank</th>
                    <th scope="col">Member</th>
                    <th scope="col">Level</th>
                    <th scope="col">Total XP</th>
                    <th scope="col">Messages</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((entry) => (
                    <tr key={entry.userId}>
                      <td>{entry.rank <= 3 ? <Badge tone="brand">#{entry.rank}</Badge> : <span className="muted">#{entry.rank}</span>}</td>
                      <td className="strong">{entry.username}</td>
                      <td>{formatNumber(entry.level)}</td>
                      <td>{formatNumber(entry.totalXp)}</td>
                      <td>{formatNumber(entry.messagesCount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryList>
        <Pager page={page} pages={pages} onPage={setPage} label="Leaderboard pages" loading={board.isPlaceholderData} />
      </CardContent>
    </Card>
  );
}
