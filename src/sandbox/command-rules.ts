// What Discord refuses when an application registers its commands (PUT, POST and PATCH of global
// and guild commands), beyond the shapes and lengths its OpenAPI spec already states: names,
// letter case, descriptions by command type, option order, uniqueness and nesting, choice values,
// localization locales, and how many commands of each type a scope may hold. A bot whose
// commands pass here but not on Discord would have no commands in production.
import { ApplicationCommandOptionType as T, ApplicationCommandType, Locale, RESTJSONErrorCodes } from 'discord-api-types/v10';
import { DiscordApiError } from './errors';
import type { FieldProblem } from './spec';

/** Discord's rule for slash command and option names (unicode flag set). */
export const CHAT_INPUT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** The locales a localization map may name (Discord's list, as discord-api-types spells it). */
const LOCALES: ReadonlySet<string> = new Set(Object.values(Locale));

/** Commands of each type a scope (global, or one guild) may hold, from Discord's "Registering a Command". */
export const COMMAND_LIMITS: Readonly<Record<number, number>> = {
  [ApplicationCommandType.ChatInput]: 100,
  [ApplicationCommandType.User]: 15,
  [ApplicationCommandType.Message]: 15,
  [ApplicationCommandType.PrimaryEntryPoint]: 1,
};

/** Discord's cap on a string choice's value (the spec says 6,000; the docs and the API say 100). */
const CHOICE_VALUE_MAX = 100;

/** A JSON object as a record, or null for anything else. */
function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The objects of a JSON array (nothing for anything else). */
function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(record).filter((item): item is Record<string, unknown> => item !== null) : [];
}

/** Problems by Discord's dotted field path; the first problem of a path is the one kept. */
type Problems = Record<string, FieldProblem>;

const invalidName: FieldProblem = { code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' };

/** The type of a command body (slash commands when absent). */
export function commandType(command: { type?: unknown }): number {
  return typeof command.type === 'number' ? command.type : ApplicationCommandType.ChatInput;
}

/** Whether a name is one Discord takes for a slash command or an option: its characters, and lowercase where a letter has a lowercase form. */
export function isChatInputName(name: unknown): boolean {
  return typeof name === 'string' && CHAT_INPUT_NAME.test(name) && [...name].every((char) => char.toLowerCase() === char);
}

/** Whether a name is one Discord takes for a user or message command: any case, spaces allowed, not blank. */
function isContextMenuName(name: unknown): boolean {
  return typeof name === 'string' && name.trim().length > 0;
}

/** Refuses locales Discord does not know, and localized values the field itself would refuse. */
function localizationProblems(map: unknown, path: string, valueOk: (value: unknown) => boolean, problems: Problems): void {
  for (const [locale, value] of Object.entries(record(map) ?? {})) {
    if (!LOCALES.has(locale)) problems[`${path}.${locale}`] ??= { code: 'ENUM_TYPE_COERCE', message: `Value "${locale}" is not a valid enum value.` };
    else if (!valueOk(value)) problems[`${path}.${locale}`] ??= invalidName;
  }
}

/** A choice's value: a string up to 100 characters, or a number. */
function choiceProblems(choices: unknown, path: string, problems: Problems): void {
  records(choices).forEach((choice, index) => {
    const at = `${path}.${index}`;
    if (typeof choice.value === 'string' && [...choice.value].length > CHOICE_VALUE_MAX) {
      problems[`${at}.value`] ??= { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${CHOICE_VALUE_MAX} or fewer in length.` };
    }
    localizationProblems(choice.name_localizations, `${at}.name_localizations`, () => true, problems);
  });
}

const isGroupingType = (type: unknown) => type === T.Subcommand || type === T.SubcommandGroup;

/**
 * One level of options: at most 25 (the spec), names unique, required ones first, subcommands and
 * groups never mixed with plain options; groups hold only subcommands and subcommands no
 * subcommands or groups (`parent` is the type of the option holding this level).
 */
function optionLevelProblems(options: Record<string, unknown>[], path: string, parent: number | null, problems: Problems): void {
  const grouping = options.filter((option) => isGroupingType(option.type)).length;
  if (grouping > 0 && grouping < options.length) {
    problems[path] ??= {
      code: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
      message: 'Sub-command and sub-command group option types are mutually exclusive to all other types',
    };
  }
  const seen = new Set<unknown>();
  let optionalSeen = false;
  options.forEach((option, index) => {
    const at = `${path}.${index}`;
    const nested = parent === T.SubcommandGroup ? option.type !== T.Subcommand : parent === T.Subcommand && isGroupingType(option.type);
    if (nested) {
      problems[`${at}.type`] ??= {
        code: 'APPLICATION_COMMAND_OPTION_TYPE_INVALID',
        message: 'Sub-command groups hold only sub-commands, and sub-commands hold no sub-commands or groups.',
      };
    }
    if (seen.has(option.name)) {
      problems[at] ??= { code: 'APPLICATION_COMMAND_OPTIONS_NAME_INVALID', message: `Option name ${String(option.name)} is already used in these options` };
    }
    seen.add(option.name);
    if (!isGroupingType(option.type)) {
      if (option.required === true && optionalSeen) {
        problems[at] ??= { code: 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', message: 'Required options must be placed before non-required options' };
      }
      if (option.required !== true) optionalSeen = true;
    }
    optionProblems(option, at, problems);
  });
}

/** One option: its name and description, their localizations, its choices and its own options. */
function optionProblems(option: Record<string, unknown>, at: string, problems: Problems): void {
  if (!isChatInputName(option.name)) problems[`${at}.name`] ??= invalidName;
  if (typeof option.description !== 'string' || option.description.length === 0) {
    problems[`${at}.description`] ??= { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' };
  }
  localizationProblems(option.name_localizations, `${at}.name_localizations`, isChatInputName, problems);
  localizationProblems(option.description_localizations, `${at}.description_localizations`, () => true, problems);
  choiceProblems(option.choices, `${at}.choices`, problems);
  const options = records(option.options);
  if (options.length > 0) optionLevelProblems(options, `${at}.options`, typeof option.type === 'number' ? option.type : null, problems);
}

/** Everything wrong with one command body, its paths under `prefix` (`"0."` for the first of a bulk overwrite). */
export function commandProblems(body: unknown, prefix = ''): Problems {
  const problems: Problems = {};
  const command = record(body);
  if (!command) return { [prefix ? prefix.slice(0, -1) : '_root']: { code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' } };
  const options = records(command.options);
  const type = commandType(command);
  const chatInput = type === ApplicationCommandType.ChatInput;
  // Activities' entry point commands are named as slash commands are.
  const nameOk = chatInput || type === ApplicationCommandType.PrimaryEntryPoint ? isChatInputName : isContextMenuName;
  if (!nameOk(command.name)) problems[`${prefix}name`] = invalidName;
  localizationProblems(command.name_localizations, `${prefix}name_localizations`, nameOk, problems);
  localizationProblems(command.description_localizations, `${prefix}description_localizations`, () => true, problems);
  const description = command.description;
  if (chatInput && (description === undefined || description === null)) {
    problems[`${prefix}description`] = { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
  } else if (chatInput && description === '') {
    problems[`${prefix}description`] = { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' };
  } else if (!chatInput && typeof description === 'string' && description !== '') {
    // Discord takes "" or no description for a context menu command, and refuses any text.
    problems[`${prefix}description`] = {
      code: 'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION_INVALID',
      message: 'Context menu commands cannot have description',
    };
  }
  if (!chatInput && options.length > 0) {
    problems[`${prefix}options`] = { code: 'BASE_TYPE_BAD', message: 'Context menu commands take no options.' };
  } else if (options.length > 0) {
    optionLevelProblems(options, `${prefix}options`, null, problems);
  }
  return problems;
}

/** Everything wrong with a bulk overwrite: each command under its index, and a name used twice for one type. */
export function bulkProblems(bodies: unknown[]): Problems {
  const problems: Problems = {};
  const names = new Set<string>();
  bodies.forEach((body, index) => {
    Object.assign(problems, commandProblems(body, `${index}.`));
    const { name, type } = (body ?? {}) as { name?: unknown; type?: unknown };
    const key = `${commandType({ type })}:${String(name)}`;
    if (names.has(key)) problems[String(index)] ??= { code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: 'Application command names must be unique' };
    names.add(key);
  });
  return problems;
}

/** 30032 when a scope would hold more commands of a type than Discord allows. */
export function checkCommandCounts(commands: { type?: unknown }[]): void {
  const counts = new Map<number, number>();
  for (const command of commands) counts.set(commandType(command), (counts.get(commandType(command)) ?? 0) + 1);
  for (const [type, count] of counts) {
    const limit = COMMAND_LIMITS[type];
    if (limit !== undefined && count > limit) {
      throw new DiscordApiError(400, RESTJSONErrorCodes.MaximumNumberOfApplicationCommandsReached, `Maximum number of application commands reached (${limit})`);
    }
  }
}
