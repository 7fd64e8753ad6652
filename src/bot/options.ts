import { InvalidInput } from '../core/errors';
import { isSnowflake } from '../shared/auth';
import { isCommandAttachment, isCommandUser, type Command, type CommandOption, type OptionValue } from './command';

/** How a command is typed, for usage hints: "!give <member> <amount> [note]". */
export function usage(command: Command, prefix: string): string {
  const parts = (command.options ?? []).map((option) => (option.required ? `<${option.name}>` : `[${option.name}]`));
  return [`${prefix}${command.name}`, ...parts].join(' ');
}

/** Checks one value against its declared option; returns the problem in words, or null. */
function problemWith(option: CommandOption, value: OptionValue): string | null {
  switch (option.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      if (option.minLength !== undefined && value.length < option.minLength) return `must be at least ${option.minLength} characters`;
      if (option.maxLength !== undefined && value.length > option.maxLength) return `must be at most ${option.maxLength} characters`;
      if (option.choices && !option.choices.some((choice) => choice.value === value)) return `must be one of ${option.choices.map((c) => c.value).join(', ')}`;
      return null;
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (option.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (option.min !== undefined && value < option.min) return `must be at least ${option.min}`;
      if (option.max !== undefined && value > option.max) return `must be at most ${option.max}`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be yes or no';
    case 'user':
      return isCommandUser(value) ? null : 'must be a member';
    case 'attachment':
      return isCommandAttachment(value) ? null : 'must be a file';
    case 'channel':
    case 'role':
      return typeof value === 'string' && isSnowflake(value) ? null : `must be a ${option.type}`;
  }
}

/**
 * Validates parsed options against the command's declarations (required, ranges, lengths,
 * choices). Discord checks slash options too, but a text command has only us; one rule serves both.
 */
export function validateOptions(command: Command, values: ReadonlyMap<string, OptionValue>, prefix: string): void {
  const fields: Record<string, string> = {};
  for (const option of command.options ?? []) {
    const value = values.get(option.name);
    if (value === undefined) {
      if (option.required) fields[option.name] = 'is required';
      continue;
    }
    const problem = problemWith(option, value);
    if (problem) fields[option.name] = problem;
  }
  if (Object.keys(fields).length === 0) return;
  const first = Object.entries(fields)[0];
  throw new InvalidInput(fields, `${first?.[0]} ${first?.[1]}. Usage: ${usage(command, prefix)}`);
}
