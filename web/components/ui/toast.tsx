// Renders the toasts signal with Radix Toast (F8 focuses the viewport, swipe to dismiss, pause on hover).
import * as ToastPrimitive from '@radix-ui/react-toast';
import { useSignals } from '@preact/signals-react/runtime';
import { X } from 'lucide-react';
import { dismissToast, toasts, TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from '../../state/toasts';
import { cn } from './cn';

/** The toast region: mounted once near the root, through ToastRegion (which loads this module with the first toast). */
export function Toaster() {
  useSignals();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}>
      {toasts.value.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          className={cn('toast', item.variant === 'destructive' && 'toast-destructive')}
          data-testid="toast"
        >
          <div className="toast-body">
            {item.title ? <ToastPrimitive.Title className="toast-title">{item.title}</ToastPrimitive.Title> : null}
            {item.description ? <ToastPrimitive.Description className="toast-description">{item.description}</ToastPrimitive.Description> : null}
          </div>
          {item.action ? (
            <ToastPrimitive.Action altText={item.action.altText} className="btn btn-outline btn-sm" onClick={item.action.onClick}>
              {item.action.label}
            </ToastPrimitive.Action>
          ) : null}
          <ToastPrimitive.Close className="icon-close toast-close" aria-label="Dismiss">
            <X size={16} aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="toast-viewport" />
    </ToastPrimitive.Provider>
  );
}
