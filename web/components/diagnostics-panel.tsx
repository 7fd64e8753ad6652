// What will fail now for one or more features, each with how to fix it, read live from the server
// (a role moved or a permission changed in Discord shows on the next read).
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CircleCheck, XCircle } from 'lucide-react';
import type { DiagnosticFeature } from '../../src/shared/diagnostics';
import { diagnosticsOf, diagnosticsQuery } from '../api/guild';
import { errorMessage } from '../api/client';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './ui/card';
import { Skeleton } from './ui/skeleton';

/** Props of DiagnosticsPanel. */
export interface DiagnosticsPanelProps {
  guildId: string;
  features: DiagnosticFeature | readonly DiagnosticFeature[];
  title?: string;
}

/** The feature's problems as a card: a green all-clear, or each problem with its fix. */
export function DiagnosticsPanel({ guildId, features, title = 'Health check' }: DiagnosticsPanelProps) {
  const diagnostics = useQuery(diagnosticsQuery(guildId));
  const items = diagnosticsOf(diagnostics.data, features);
  return (
    <Card aria-labelledby={`${title}-heading`}>
      <CardHeader>
        <CardTitle id={`${title}-heading`}>{title}</CardTitle>
        <CardDescription>What would fail right now, checked against Discord.</CardDescription>
      </CardHeader>
      <CardContent>
        {diagnostics.isPending ? (
          <Skeleton height="3rem" />
        ) : diagnostics.isError ? (
          <p className="error-text small">Could not run the checks: {errorMessage(diagnostics.error)}</p>
        ) : items.length === 0 ? (
          <p className="notice notice-success" role="status">
            <CircleCheck size={16} aria-hidden="true" /> Everything checks out.
          </p>
        ) : (
          <ul className="problem-list" aria-label={`${title} problems`}>
            {items.map((item) => (
              <li key={`${item.subject ?? ''}:${item.problem}`} className={`notice ${item.severity === 'error' ? 'notice-danger' : 'notice-warning'}`}>
                {item.severity === 'error' ? <XCircle size={16} aria-hidden="true" /> : <AlertTriangle size={16} aria-hidden="true" />}
                <span>
                  <span className="strong">{item.problem}</span> {item.fix}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
