// "Edit message" (issue 25, point 8): changes the message an announcement already posted, in place
// (it keeps its id, pins and reactions), with the live preview. A message deleted in Discord, or one
// the bot can no longer see, is refused in words in a toast; the dialog stays open.
import { useState } from 'react';
import { ANNOUNCEMENT_MESSAGES, AnnouncementSchema, type AnnouncementView } from '../../../src/shared/announcements';
import type { GuildDirectory } from '../../../src/shared/servers';
import { apiRequest, fieldErrorsOf } from '../../api/client';
import { guildApi } from '../../api/guild';
import { changedOnly } from '../../api/changes';
import { useGuildMutation } from '../../api/mutations';
import { useUnsavedChanges } from '../../state/unsaved';
import { Field } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Textarea } from '../../components/ui/textarea';
import { draftOfEntry, Preview, PRIORITY_OPTIONS, type Draft } from './fields';

/** The dialog for `entry` (closed when null). */
export function EditMessageDialog({
  guildId,
  entry,
  directory,
  invalidate,
  onClose,
}: {
  guildId: string;
  entry: AnnouncementView | null;
  directory: GuildDirectory | undefined;
  invalidate: readonly (readonly unknown[])[];
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const current = draft ?? (entry ? draftOfEntry(entry) : null);
  useUnsavedChanges(draft !== null && entry !== null && JSON.stringify(draft) !== JSON.stringify(draftOfEntry(entry)));
  const close = () => {
    setDraft(null);
    setErrors({});
    onClose();
  };
  const save = useGuildMutation({
    request: async ({ from, to }: { from: AnnouncementView; to: Draft }) => {
      const before = draftOfEntry(from);
      const changed = changedOnly(
        { title: to.title, message: to.message, priority: to.priority },
        { title: before.title, message: before.message, priority: before.priority },
      );
      return AnnouncementSchema.parse(
        await apiRequest('PATCH', `${guildApi(guildId)}/announcements/${from.id}/message`, { ...changed, baseVersion: from.version }),
      );
    },
    invalidate: [...invalidate],
    success: { title: ANNOUNCEMENT_MESSAGES.messageEdited, description: 'The message kept its place, its pins and its reactions.' },
    failure: { title: 'Could not edit the message' },
    onSuccess: close,
  });
  const update = (patch: Partial<Draft>) => current && setDraft({ ...current, ...patch });
  return (
    <Dialog open={entry !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent title="Edit the sent message" description="The message in Discord is changed in place: it keeps its link, pins and reactions.">
        {entry && current ? (
          <form
            className="stack"
            aria-label="Edit the sent message"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate({ from: entry, to: current }, { onError: (error) => setErrors(fieldErrorsOf(error)) });
            }}
          >
            <Field label="Title" error={errors.title}>
              {(ids) => <Input {...ids} value={current.title} maxLength={256} onChange={(event) => update({ title: event.target.value })} />}
            </Field>
            <Field label="Message" error={errors.message}>
              {(ids) => <Textarea {...ids} rows={5} maxLength={4000} value={current.message} onChange={(event) => update({ message: event.target.value })} />}
            </Field>
            <Field label="Priority" error={errors.priority}>
              {(ids) => (
                <Select
                  id={ids.id}
                  options={PRIORITY_OPTIONS}
                  value={current.priority}
                  onValueChange={(priority) => update({ priority: priority as Draft['priority'] })}
                />
              )}
            </Field>
            <Preview draft={current} directory={directory} />
            {entry.recurrence ? <p className="muted small">Its latest message is edited; later sends use this text too.</p> : null}
            <div className="dialog-actions">
              <Button variant="outline" onClick={close}>
                Back
              </Button>
              <Button type="submit" disabled={save.isPending || current.title.trim() === '' || current.message.trim() === ''}>
                {save.isPending ? 'Saving…' : 'Save the message'}
              </Button>
            </div>
          </form>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
