// The webhook delivery log: the last deliveries, their status, attempts and the receiver's answer.
import { useQuery } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { QueryList } from '../../components/query-list';
import { deliveriesQuery } from './api';

const TONES = { delivered: 'success', pending: 'warning', failed: 'danger' } as const;

/** The last 20 webhook deliveries of the guild. */
export function DeliveriesCard({ guildId }: { guildId: string }) {
  const deliveries = useQuery(deliveriesQuery(guildId));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhook Deliveries</CardTitle>
        <CardDescription>Failed deliveries are retried three times before they are marked failed.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryList
          query={deliveries}
          what="the webhook deliveries"
          empty={{ icon: Send, title: 'No deliveries yet', description: 'Set a webhook URL and an API key; each notification is delivered there.' }}
        >
          {(items) => (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Answer</th>
                    <th scope="col">When</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((delivery) => (
                    <tr key={delivery.id}>
                      <td>{delivery.event}</td>
                      <td>
                        <Badge tone={TONES[delivery.status]}>{delivery.status}</Badge>
                      </td>
                      <td>{delivery.attempts}</td>
                      <td>{delivery.error ?? (delivery.responseStatus ? `HTTP ${delivery.responseStatus}` : '—')}</td>
                      <td>
                        <time dateTime={delivery.updatedAt}>{new Date(delivery.updatedAt).toLocaleString()}</time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryList>
      </CardContent>
    </Card>
  );
}
