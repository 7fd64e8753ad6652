// Import levels (issue 25, point 2): a CSV of user ids and XP, or MEE6's leaderboard export; the
// server validates it (every bad row named by its line, nothing applied) and previews who goes
// from what to what; Apply imports it in one transaction, with a backup the Reset and restore card
// can restore.
import { FileUp, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import {
  BACKUP_DAYS,
  IMPORT_FORMAT_LABELS,
  IMPORT_FORMATS,
  IMPORT_RULE,
  MAX_IMPORT_CHARS,
  type ImportFormat,
  type ImportPreview,
} from '../../../src/shared/level-admin';
import { errorMessage } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { formatNumber } from '../../components/stat-card';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Field } from '../../components/form';
import { Select } from '../../components/ui/select';
import { toast } from '../../state/toasts';
import { levelingKeys } from './api';
import { applyImport, previewImport } from './admin-api';

const FORMAT_OPTIONS = IMPORT_FORMATS.map((format) => ({ value: format, label: IMPORT_FORMAT_LABELS[format] }));
const HINTS: Record<ImportFormat, string> = {
  csv: 'One member per line: user id, XP (a header line is skipped).',
  mee6: 'The JSON MEE6 serves at mee6.xyz/api/plugins/levels/leaderboard/<server id>: its players’ ids and XP.',
};

/** A file picked, and what importing it would do. */
interface Pending {
  fileName: string;
  format: ImportFormat;
  content: string;
  preview: ImportPreview;
}

/** "3 members, 2 change, 1 new here." */
function previewSummary(preview: ImportPreview): string {
  const shown = preview.rows.length < preview.total ? ` The first ${preview.rows.length} are shown.` : '';
  return `${formatNumber(preview.total)} members, ${formatNumber(preview.changed)} change, ${formatNumber(preview.added)} new here.${shown}`;
}

/** The Import levels card. */
export function ImportCard({ guildId, readOnly }: { guildId: string; readOnly: boolean }) {
  const picker = useRef<HTMLInputElement>(null);
  const [format, setFormat] = useState<ImportFormat>('csv');
  const [pending, setPending] = useState<Pending | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const apply = useGuildMutation({
    request: (input: Pending) => applyImport(guildId, { format: input.format, content: input.content }),
    invalidate: [levelingKeys.all(guildId)],
    success: (result) => ({ title: 'Levels Imported', description: result.message }),
    failure: { title: 'Import Failed' },
    onSuccess: () => setPending(null),
  });
  const preview = async (file: File) => {
    setReading(true);
    setProblem(null);
    setPending(null);
    try {
      // The server refuses more; saying so here spares sending it.
      if (file.size > MAX_IMPORT_CHARS * 4) throw new Error(`${file.name} is too large for one import: split it into smaller files.`);
      const content = await file.text();
      if (content.length > MAX_IMPORT_CHARS) throw new Error(`${file.name} is too large for one import: split it into smaller files.`);
      setPending({ fileName: file.name, format, content, preview: await previewImport(guildId, { format, content }) });
    } catch (error) {
      setProblem(errorMessage(error));
      toast({ title: 'Import Refused', description: 'The file has problems; nothing was imported. They are listed in the card.', variant: 'destructive' });
    } finally {
      setReading(false);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Import levels</CardTitle>
        <CardDescription>
          From a CSV or MEE6’s leaderboard. {IMPORT_RULE} The import keeps a backup for {BACKUP_DAYS} days.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <div className="form-grid">
          <Field label="Format" hint={HINTS[format]}>
            {(ids) => (
              <Select
                id={ids.id}
                options={FORMAT_OPTIONS}
                value={format}
                onValueChange={(value) => {
                  setFormat(value as ImportFormat);
                  setPending(null);
                  setProblem(null);
                }}
                disabled={readOnly}
              />
            )}
          </Field>
        </div>
        <div className="row">
          <Button variant="outline" onClick={() => picker.current?.click()} disabled={readOnly || reading}>
            <Upload size={16} aria-hidden="true" /> {reading ? 'Reading…' : 'Choose a file'}
          </Button>
          <input
            ref={picker}
            type="file"
            accept={format === 'csv' ? '.csv,.txt,text/csv,text/plain' : '.json,application/json'}
            hidden
            aria-label="Levels file to import"
            data-testid="levels-import-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void preview(file);
            }}
          />
        </div>
        {problem ? (
          <p className="notice notice-danger" role="alert">
            {problem}
          </p>
        ) : null}
        {pending ? (
          <section className="stack" aria-label="Import preview">
            <p className="small">
              <span className="strong">{pending.fileName}</span>: {previewSummary(pending.preview)}
            </p>
            <div className="table-wrap">
              <table className="table">
                <caption className="sr-only">What the import changes</caption>
                <thead>
                  <tr>
                    <th scope="col">Line</th>
                    <th scope="col">Member</th>
                    <th scope="col">From</th>
                    <th scope="col">To</th>
                  </tr>
                </thead>
                <tbody>
                  {pending.preview.rows.map((row) => (
                    <tr key={row.userId}>
                      <td className="muted">{row.line}</td>
                      <td className="strong">{row.username}</td>
                      <td>
                        Level {row.fromLevel} · {formatNumber(row.fromXp)} XP
                      </td>
                      <td>
                        Level {row.toLevel} · {formatNumber(row.toXp)} XP
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="row">
              <Button variant="outline" onClick={() => setPending(null)}>
                Discard
              </Button>
              <Button onClick={() => apply.mutate(pending)} disabled={readOnly || apply.isPending}>
                {apply.isPending ? 'Importing…' : `Import ${formatNumber(pending.preview.total)} members`}
              </Button>
            </div>
          </section>
        ) : problem ? null : (
          <EmptyState icon={FileUp} title="No file chosen" description="Choose a file to see who goes from what to what before anything changes." />
        )}
      </CardContent>
    </Card>
  );
}
