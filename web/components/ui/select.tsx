// A single-choice list on Radix (keyboard navigation, typeahead).
import * as SelectPrimitive from '@radix-ui/react-select';
import { getNonce } from 'get-nonce';
import { Check, ChevronDown } from 'lucide-react';
import type { ComponentPropsWithoutRef } from 'react';
import { cn } from './cn';

/** One choice of a Select. */
export interface SelectOption {
  value: string;
  label: string;
}

/** Props of Select. */
export interface SelectProps extends ComponentPropsWithoutRef<typeof SelectPrimitive.Root> {
  options: readonly SelectOption[];
  id?: string;
  placeholder?: string;
  className?: string;
  'aria-label'?: string;
}

/** A styled select: a trigger showing the value and a popover list of options. */
export function Select({ options, id, placeholder, className, 'aria-label': ariaLabel, ...props }: SelectProps) {
  return (
    <SelectPrimitive.Root {...props}>
      <SelectPrimitive.Trigger id={id} className={cn('input select-trigger', className)} aria-label={ariaLabel}>
        <SelectPrimitive.Value placeholder={placeholder} />
        <SelectPrimitive.Icon>
          <ChevronDown size={16} aria-hidden="true" />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content className="menu select-content" position="popper" sideOffset={6}>
          {/* The viewport adds a <style> element: it carries the page's CSP nonce. */}
          <SelectPrimitive.Viewport nonce={getNonce()}>
            {options.map((option) => (
              <SelectPrimitive.Item key={option.value} value={option.value} className="menu-item select-item">
                <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
                <SelectPrimitive.ItemIndicator className="select-indicator">
                  <Check size={14} aria-hidden="true" />
                </SelectPrimitive.ItemIndicator>
              </SelectPrimitive.Item>
            ))}
          </SelectPrimitive.Viewport>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}
