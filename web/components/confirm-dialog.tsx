// "Are you sure?" before a change that cannot be taken back (delete a reaction role, cancel an
// announcement): a dialog with Cancel and the action, focus trapped, Escape to back out.
import type { ReactNode } from 'react';
import { Button } from './ui/button';
import { Dialog, DialogContent } from './ui/dialog';

/** Props of ConfirmDialog. */
export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  /** The button that backs out (default "Cancel"). */
  cancelLabel?: string;
  onConfirm: () => void;
  pending?: boolean;
  tone?: 'danger' | 'primary';
  /** What to show between the description and the buttons. */
  children?: ReactNode;
}

/** A confirmation dialog. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  pending,
  tone = 'danger',
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={title} description={description}>
        {children}
        <div className="dialog-actions">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {cancelLabel}
          </Button>
          <Button variant={tone === 'danger' ? 'danger' : 'primary'} onClick={onConfirm} disabled={pending}>
            {pending ? 'Working…' : confirmLabel}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
