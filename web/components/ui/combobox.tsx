// A searchable single choice: a trigger that opens a list with a search box (Radix Popover for
// focus and dismissal, cmdk for filtering and arrow-key navigation). A value that is not in the
// list can still be typed (an id pasted from Discord) when `acceptTyped` recognises it.
import * as Popover from '@radix-ui/react-popover';
import { Command } from 'cmdk';
import { Check, ChevronDown } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { cn } from './cn';

/** One choice of a Combobox. */
export interface ComboboxOption {
  value: string;
  label: string;
  /** A second line or a note ("the bot cannot post here"). */
  hint?: string;
  icon?: ReactNode;
  /** Shown but not choosable. */
  disabled?: boolean;
}

/** Props of Combobox. */
export interface ComboboxProps {
  id?: string;
  value: string | null;
  onChange: (value: string | null) => void;
  options: readonly ComboboxOption[];
  /** The trigger's text when nothing is chosen. */
  placeholder: string;
  searchPlaceholder: string;
  /** Shown when the search matches nothing. */
  emptyText: string;
  /** Offers "None" to clear the choice. */
  allowNone?: boolean;
  /** Turns typed text into a choice (an id pasted from Discord), or null. */
  acceptTyped?: (text: string) => ComboboxOption | null;
  /** The options come from a search elsewhere (the server): called with the text, and the list is not filtered here. */
  onSearchChange?: (text: string) => void;
  /** The chosen value's label when it is not among the options (a search result picked earlier). */
  selectedOption?: ComboboxOption | null;
  disabled?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  'aria-label'?: string;
  className?: string;
}

const NONE = '\u0000none';

/** A searchable select that also takes typed values. */
export function Combobox({
  id,
  value,
  onChange,
  options,
  placeholder,
  searchPlaceholder,
  emptyText,
  allowNone,
  acceptTyped,
  onSearchChange,
  selectedOption,
  disabled,
  className,
  ...aria
}: ComboboxProps) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const listId = useId();
  const selected =
    options.find((option) => option.value === value) ??
    (selectedOption?.value === value ? selectedOption : null) ??
    (value ? (acceptTyped?.(value) ?? { value, label: value }) : null);
  const searchFor = (text: string) => {
    setSearch(text);
    onSearchChange?.(text);
  };
  const typed = search.trim() && acceptTyped ? acceptTyped(search.trim()) : null;
  const offerTyped = typed && !options.some((option) => option.value === typed.value) ? typed : null;
  const choose = (next: string | null) => {
    onChange(next);
    setOpen(false);
    searchFor('');
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) searchFor('');
      }}
    >
      <Popover.Trigger asChild>
        <button
          type="button"
          id={id}
          disabled={disabled}
          role="combobox"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-haspopup="listbox"
          className={cn('input select-trigger combobox-trigger', className)}
          {...aria}
        >
          <span className={cn('combobox-value', !selected && 'muted')}>
            {selected?.icon}
            <span className="truncate">{selected ? selected.label : placeholder}</span>
          </span>
          <ChevronDown size={16} aria-hidden="true" />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="menu combobox-content" align="start" sideOffset={6}>
          <Command label={searchPlaceholder} shouldFilter={!onSearchChange}>
            <Command.Input
              className="input combobox-search"
              value={search}
              onValueChange={searchFor}
              placeholder={searchPlaceholder}
              aria-label={searchPlaceholder}
            />
            <Command.List id={listId} className="combobox-list">
              <Command.Empty className="muted small combobox-empty">{emptyText}</Command.Empty>
              {offerTyped ? (
                <Command.Item value={`typed ${search}`} className="menu-item select-item" onSelect={() => choose(offerTyped.value)}>
                  <span>Use {offerTyped.label}</span>
                </Command.Item>
              ) : null}
              {allowNone ? (
                <Command.Item value={NONE} keywords={['none']} className="menu-item select-item" onSelect={() => choose(null)}>
                  <span>None</span>
                  {value === null ? <Check size={14} aria-hidden="true" /> : null}
                </Command.Item>
              ) : null}
              {options.map((option) => (
                <Command.Item
                  key={option.value}
                  value={option.value}
                  keywords={[option.label, option.hint ?? '']}
                  disabled={option.disabled}
                  className="menu-item select-item"
                  onSelect={() => choose(option.value)}
                >
                  <span className="combobox-option">
                    {option.icon}
                    <span className="combobox-option-text">
                      <span className="truncate">{option.label}</span>
                      {option.hint ? <span className="muted small">{option.hint}</span> : null}
                    </span>
                  </span>
                  {option.value === value ? <Check size={14} aria-hidden="true" /> : null}
                </Command.Item>
              ))}
            </Command.List>
          </Command>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
