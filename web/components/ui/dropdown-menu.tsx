// A menu on Radix (arrow keys, typeahead with a 1000 ms reset, Escape, focus return).
import * as MenuPrimitive from '@radix-ui/react-dropdown-menu';
import type { ComponentPropsWithoutRef } from 'react';
import { cn } from './cn';

/** The menu's state holder. */
export const DropdownMenu = MenuPrimitive.Root;
/** The element that opens the menu; use asChild with a button. */
export const DropdownMenuTrigger = MenuPrimitive.Trigger;
/** A non-interactive heading inside the menu. */
export const DropdownMenuLabel = MenuPrimitive.Label;

/** The floating menu panel, portalled and aligned to the trigger's end. */
export function DropdownMenuContent({ className, sideOffset = 8, align = 'end', ...props }: ComponentPropsWithoutRef<typeof MenuPrimitive.Content>) {
  return (
    <MenuPrimitive.Portal>
      <MenuPrimitive.Content className={cn('menu', className)} sideOffset={sideOffset} align={align} {...props} />
    </MenuPrimitive.Portal>
  );
}

/** One menu entry; use asChild with a Link for navigation. */
export function DropdownMenuItem({ className, ...props }: ComponentPropsWithoutRef<typeof MenuPrimitive.Item>) {
  return <MenuPrimitive.Item className={cn('menu-item', className)} {...props} />;
}

/** A line between groups of items. */
export function DropdownMenuSeparator({ className, ...props }: ComponentPropsWithoutRef<typeof MenuPrimitive.Separator>) {
  return <MenuPrimitive.Separator className={cn('menu-separator', className)} {...props} />;
}
