// Tooltips on Radix. The provider's timings are the spec's (section 9), which are Radix's defaults.
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';

/** Delay before a tooltip opens on hover. */
export const TOOLTIP_DELAY_MS = 700;
/** Window in which moving to another trigger opens its tooltip at once. */
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** Shares tooltip timing across the app; mount once near the root. */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

/** Props of Tooltip. */
export interface TooltipProps {
  /** The text shown in the tooltip. */
  label: ReactNode;
  /** A single focusable element (it becomes the trigger). */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

/** Shows `label` when its child is hovered or focused. */
export function Tooltip({ label, children, side = 'top' }: TooltipProps) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content className="tooltip" side={side} sideOffset={6}>
          {label}
          <TooltipPrimitive.Arrow className="tooltip-arrow" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
