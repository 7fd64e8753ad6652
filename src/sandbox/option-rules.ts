// What Discord refuses in a slash command's option values before the bot sees them: its client
// offers only values of the option's type, within its choices, lengths and range, and its API
// checks the interaction again. Text is anything the member types (odd unicode included), so only
// its length and choices are checked; ids are resolved by the payload builder.
import {
  ApplicationCommandOptionType as T,
  type APIApplicationCommandIntegerOption,
  type APIApplicationCommandNumberOption,
  type APIApplicationCommandOption,
} from 'discord-api-types/v10';

/** Discord's bounds: integers and numbers within ±2^53, text at most 6000 characters. */
const NUMBER_LIMIT = 2 ** 53;
const TEXT_LIMIT = 6000;

/** A number as a member types it: digits, an optional minus and decimal part (no hex, exponent or spaces). */
const TYPED_NUMBER = /^-?\d+(\.\d+)?$/;

/** The value of a number option as Discord sends it, or why Discord refuses it. */
function numberValue(def: APIApplicationCommandIntegerOption | APIApplicationCommandNumberOption, value: string | number | boolean): number | string {
  const number = typeof value === 'number' ? value : typeof value === 'string' && TYPED_NUMBER.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return 'must be a number';
  if (def.type === T.Integer && !Number.isInteger(number)) return 'must be a whole number';
  if (Math.abs(number) > NUMBER_LIMIT) return `must be between -${NUMBER_LIMIT} and ${NUMBER_LIMIT}`;
  if (def.min_value !== undefined && number < def.min_value) return `must be at least ${def.min_value}`;
  if (def.max_value !== undefined && number > def.max_value) return `must be at most ${def.max_value}`;
  return number;
}

/** The value of a text option as Discord sends it, or why Discord refuses it. */
function textValue(def: APIApplicationCommandOption, value: string | number | boolean): { text: string } | string {
  const text = String(value);
  if (def.type !== T.String) return { text };
  if (text === '') return 'must not be empty';
  if (text.length > (def.max_length ?? TEXT_LIMIT)) return `must be at most ${def.max_length ?? TEXT_LIMIT} characters`;
  if (def.min_length !== undefined && text.length < def.min_length) return `must be at least ${def.min_length} characters`;
  if (def.choices && !def.choices.some((choice) => choice.value === text)) return `must be one of ${def.choices.map((choice) => choice.value).join(', ')}`;
  return { text };
}

/**
 * Checks a value a control-API caller gives for an option as Discord would; returns the value to
 * put in the interaction (numbers as numbers, flags as booleans, the rest as text), or `refused`
 * with the reason.
 */
export function discordOptionValue(
  def: APIApplicationCommandOption,
  value: string | number | boolean,
): { value: string | number | boolean } | { refused: string } {
  switch (def.type) {
    case T.Integer:
    case T.Number: {
      const number = numberValue(def, value);
      return typeof number === 'number' ? { value: number } : { refused: number };
    }
    case T.Boolean:
      if (value === true || value === 'true') return { value: true };
      if (value === false || value === 'false') return { value: false };
      return { refused: 'must be true or false' };
    default: {
      const text = textValue(def, value);
      return typeof text === 'string' ? { refused: text } : { value: text.text };
    }
  }
}
