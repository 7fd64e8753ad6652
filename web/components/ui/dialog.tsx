// A modal dialog on Radix (focus trap, Escape, scroll lock, aria wiring).
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { cn } from './cn';

/** The dialog's state holder (open/onOpenChange). */
export const Dialog = DialogPrimitive.Root;
/** The element that opens the dialog; use asChild with a Button. */
export const DialogTrigger = DialogPrimitive.Trigger;
/** A button that closes the dialog; use asChild with a Button. */
export const DialogClose = DialogPrimitive.Close;

/** Props of DialogContent. */
export interface DialogContentProps extends Omit<ComponentPropsWithoutRef<typeof DialogPrimitive.Content>, 'title'> {
  title: ReactNode;
  description?: ReactNode;
}

/** The centred panel with an overlay, a title, an optional description and a close button. */
export function DialogContent({ title, description, className, children, ...props }: DialogContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="overlay" />
      <DialogPrimitive.Content className={cn('dialog', className)} {...(description ? {} : { 'aria-describedby': undefined })} {...props}>
        <div className="dialog-header">
          <DialogPrimitive.Title className="dialog-title">{title}</DialogPrimitive.Title>
          {description ? <DialogPrimitive.Description className="dialog-description">{description}</DialogPrimitive.Description> : null}
        </div>
        {children}
        <DialogPrimitive.Close className="icon-close" aria-label="Close">
          <X size={18} aria-hidden="true" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
