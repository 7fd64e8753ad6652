// Data Management (spec section 2): Export Data, Import Data (checked, previewed, then applied),
// Backup Settings and Reset Bot (a confirmation, then type RESET), with the spec's notices.
import { AlertTriangle, Archive, Download, RotateCcw, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { BOT_SETTINGS_MESSAGES } from '../../../src/shared/bot-settings';
import type { ImportResult } from '../../../src/shared/settings';
import { errorMessage } from '../../api/client';
import { useGuildMutation } from '../../api/mutations';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input, Label } from '../../components/ui/input';
import { toast } from '../../state/toasts';
import { downloadable, importSettings, resetSettings, saveJsonFile, settingsKeys } from './api';
import { ChangeList } from './history-card';

/** Reads a picked file as JSON; null (with the spec's notice) when it is not a .json file of JSON. */
async function readJsonFile(file: File): Promise<unknown | null> {
  const fail = () => {
    toast({ ...BOT_SETTINGS_MESSAGES.importFailed, variant: 'destructive' });
    return null;
  };
  if (!file.name.toLowerCase().endsWith('.json')) return fail();
  try {
    return JSON.parse(await file.text()) as unknown;
  } catch {
    return fail();
  }
}

/** Export, import, backup and reset of one guild's settings. */
export function DataCard({ guildId, serverName, readOnly }: { guildId: string; serverName: string; readOnly: boolean }) {
  const picker = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<{ file: unknown; preview: ImportResult } | null>(null);
  const [resetStep, setResetStep] = useState<'closed' | 'confirm' | 'type'>('closed');
  const [typed, setTyped] = useState('');
  const stamp = () => new Date().toISOString().slice(0, 10);
  const fileName = (kind: string) => `${serverName.replace(/[^\w-]+/g, '-').toLowerCase() || 'server'}-${kind}-${stamp()}.json`;

  const apply = useGuildMutation({
    request: (file: unknown) => importSettings(guildId, file, true),
    invalidate: [settingsKeys.all(guildId)],
    success: (result) => ({
      title: BOT_SETTINGS_MESSAGES.imported,
      description: `${result.changes.length} setting${result.changes.length === 1 ? '' : 's'} changed.`,
    }),
    failure: (error) => ({ title: BOT_SETTINGS_MESSAGES.importFailed.title, description: errorMessage(error) }),
    onSuccess: () => setPending(null),
  });
  const reset = useGuildMutation({
    request: () => resetSettings(guildId),
    invalidate: [settingsKeys.all(guildId)],
    success: { title: BOT_SETTINGS_MESSAGES.resetDone, description: 'Every setting is back to its default.' },
    failure: { title: 'Error', description: undefined },
  });

  const download = async (kind: 'export' | 'backup') => {
    try {
      saveJsonFile(fileName(kind === 'export' ? 'settings' : 'backup'), await downloadable(guildId, kind));
      toast({ title: kind === 'export' ? BOT_SETTINGS_MESSAGES.exported : BOT_SETTINGS_MESSAGES.backedUp, description: 'The file was downloaded.' });
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
    }
  };

  const preview = async (file: File) => {
    const parsed = await readJsonFile(file);
    if (parsed === null) return;
    try {
      setPending({ file: parsed, preview: await importSettings(guildId, parsed, false) });
    } catch (error) {
      toast({ title: BOT_SETTINGS_MESSAGES.importFailed.title, description: errorMessage(error), variant: 'destructive' });
    }
  };

  const finishReset = () => {
    const confirmed = typed === 'RESET';
    setResetStep('closed');
    setTyped('');
    if (confirmed) reset.mutate(undefined);
    else toast({ title: BOT_SETTINGS_MESSAGES.resetCancelled, description: 'Nothing was changed.' });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Data Management</CardTitle>
        <CardDescription>Export, import, back up or reset this server’s configuration.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <p className="notice notice-warning">
          <AlertTriangle size={16} aria-hidden="true" /> Data operations are permanent. Import and reset replace settings; every change is kept in the history
          below and can be restored.
        </p>
        <div className="row">
          <Button variant="outline" onClick={() => void download('export')}>
            <Download size={16} aria-hidden="true" /> Export Data
          </Button>
          <Button variant="outline" onClick={() => picker.current?.click()} disabled={readOnly}>
            <Upload size={16} aria-hidden="true" /> Import Data
          </Button>
          <input
            ref={picker}
            type="file"
            accept=".json,application/json"
            hidden
            aria-label="Settings file to import"
            data-testid="import-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void preview(file);
            }}
          />
          <Button variant="outline" onClick={() => void download('backup')}>
            <Archive size={16} aria-hidden="true" /> Backup Settings
          </Button>
          <Button variant="danger" onClick={() => setResetStep('confirm')} disabled={readOnly || reset.isPending}>
            <RotateCcw size={16} aria-hidden="true" /> Reset Bot
          </Button>
        </div>
      </CardContent>

      <Dialog open={pending !== null} onOpenChange={(open) => !open && setPending(null)}>
        <DialogContent
          title="Import settings"
          description={pending?.preview.changes.length ? 'These settings will change:' : 'This file holds the settings this server already has.'}
        >
          {pending ? <ChangeList changes={pending.preview.changes} /> : null}
          <div className="dialog-actions">
            <Button variant="outline" onClick={() => setPending(null)}>
              Cancel
            </Button>
            <Button onClick={() => pending && apply.mutate(pending.file)} disabled={!pending?.preview.changes.length || apply.isPending}>
              Apply import
            </Button>
          </div>
        </DialogContent>
      </Dialog>

      <Dialog open={resetStep !== 'closed'} onOpenChange={(open) => !open && (setResetStep('closed'), setTyped(''))}>
        {resetStep === 'confirm' ? (
          <DialogContent
            title="Reset the bot?"
            description="Every setting of this server goes back to its default. The change is recorded and can be restored from the history."
          >
            <div className="dialog-actions">
              <Button
                variant="outline"
                onClick={() => {
                  setResetStep('closed');
                  toast({ title: BOT_SETTINGS_MESSAGES.resetCancelled, description: 'Nothing was changed.' });
                }}
              >
                Cancel
              </Button>
              <Button variant="danger" onClick={() => setResetStep('type')}>
                Continue
              </Button>
            </div>
          </DialogContent>
        ) : (
          <DialogContent title="Type RESET to confirm">
            <form
              className="stack"
              onSubmit={(event) => {
                event.preventDefault();
                finishReset();
              }}
            >
              <div className="field">
                <Label htmlFor="reset-confirm">Confirmation</Label>
                <Input id="reset-confirm" value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} autoFocus />
              </div>
              <div className="dialog-actions">
                <Button type="submit" variant="danger">
                  Reset Bot
                </Button>
              </div>
            </form>
          </DialogContent>
        )}
      </Dialog>
    </Card>
  );
}
