// A modal dialog on Radix (focus trap, Escape, scroll lock, aria wiring), and focus handed back to
// what opened it when it closes (WCAG 2.4.3). Radix returns focus only to a Dialog.Trigger; our
// dialogs open from state (a row's button, a step of a form), so the Dialog remembers the focused
// element itself when `open` turns true and DialogContent gives focus back to it on close.
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { createContext, useContext, useLayoutEffect, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { cn } from './cn';
import { OpenerMemory, trackFocus } from './return-focus';

const DialogFocusContext = createContext<OpenerMemory | null>(null);

/** The dialog's state holder (open/onOpenChange); remembers the element that had focus when it opened. */
export function Dialog(props: ComponentPropsWithoutRef<typeof DialogPrimitive.Root>) {
  const [memory] = useState(() => new OpenerMemory());
  const isOpen = props.open === true;
  useLayoutEffect(trackFocus, []);
  // A layout effect runs before Radix moves focus into the content (its focus scope does that in a
  // passive effect of a later commit), so document.activeElement is still the opener here.
  useLayoutEffect(() => memory.follow(isOpen), [memory, isOpen]);
  return (
    <DialogFocusContext.Provider value={memory}>
      <DialogPrimitive.Root {...props} />
    </DialogFocusContext.Provider>
  );
}
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
export function DialogContent({ title, description, className, children, onCloseAutoFocus, ...props }: DialogContentProps) {
  const memory = useContext(DialogFocusContext);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="overlay" />
      <DialogPrimitive.Content
        className={cn('dialog', className)}
        {...(description ? {} : { 'aria-describedby': undefined })}
        {...props}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (!event.defaultPrevented && memory?.contentClosed()) event.preventDefault();
        }}
      >
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
