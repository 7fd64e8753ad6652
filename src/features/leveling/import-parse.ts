// Reading an import of levels: a CSV of user ids and XP, or MEE6's leaderboard export (its public
// JSON: `{ players: [{ id, username, xp, level, message_count, detailed_xp, ... }] }` as
// mee6.xyz/api/plugins/levels/leaderboard/:guildId serves it, or the bare array of players the
// usual scrapers save). Every bad row is named by its line and field; one bad row refuses the file.
import { InvalidInput } from '../../core/errors';
import { isSnowflake } from '../../shared/auth';
import { MAX_IMPORT_ROWS, MAX_TOTAL_XP, type ImportFormat } from '../../shared/level-admin';

/** One member read from an import. */
export interface ImportedRow {
  /** The line of the file the member is on (where their entry begins, for JSON). */
  line: number;
  userId: string;
  xp: number;
  /** MEE6 carries the name and the message count; a CSV does not. */
  username: string | null;
  messages: number | null;
}

/** Problems listed in the refusal before "and N more". */
const LISTED_PROBLEMS = 20;
const XP_RANGE = `a whole number from 0 to ${MAX_TOTAL_XP.toLocaleString('en-US')}`;

/** Refuses the file, naming each problem (the first ones) with its line. */
function refuse(problems: string[]): never {
  const more = problems.length > LISTED_PROBLEMS ? ` …and ${problems.length - LISTED_PROBLEMS} more.` : '';
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  const message = `The file has ${count}, so nothing was imported. ${problems.slice(0, LISTED_PROBLEMS).join(' ')}${more}`;
  throw new InvalidInput({ content: message }, message);
}

/** A whole number of XP within range, from a cell or a JSON value; null otherwise. */
function xpOf(value: unknown): number | null {
  const number = typeof value === 'string' && /^\s*\d{1,10}\s*$/.test(value) ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isInteger(number) && number >= 0 && number <= MAX_TOTAL_XP ? number : null;
}

/** Refuses a second row for the same member, and more rows than an import takes. */
function checkRows(rows: ImportedRow[], problems: string[]): void {
  const seen = new Map<string, number>();
  for (const row of rows) {
    const first = seen.get(row.userId);
    if (first !== undefined) problems.push(`Line ${row.line}: user id ${row.userId} is listed again (first on line ${first}).`);
    else seen.set(row.userId, row.line);
  }
  if (rows.length > MAX_IMPORT_ROWS)
    problems.push(`The file lists ${rows.length} members; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')}.`);
  if (problems.length === 0 && rows.length === 0) problems.push('It lists no members.');
}

/** The cells of one CSV line: comma, semicolon or tab separated, quotes around a cell allowed. */
function cellsOf(line: string): string[] {
  const separator = line.includes('\t') ? '\t' : line.includes(';') && !line.includes(',') ? ';' : ',';
  return line.split(separator).map((cell) =>
    cell
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim(),
  );
}

/** A CSV of `user id, XP` per line; a first line that is a header (no digits in its first cell) is skipped. */
export function parseLevelCsv(content: string): ImportedRow[] {
  const rows: ImportedRow[] = [];
  const problems: string[] = [];
  const lines = content.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const first = lines.findIndex((raw) => raw.trim() !== '');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const [id = '', xp] = cellsOf(raw);
    // A header ("user_id,xp"): its first cell has no digit.
    if (index === first && !/\d/.test(id)) return;
    if (xp === undefined) return void problems.push(`Line ${line}: expected a user id and an XP separated by a comma.`);
    const bad: string[] = [];
    if (!isSnowflake(id)) bad.push(`the user id “${id.slice(0, 30)}” is not a Discord id`);
    const amount = xpOf(xp);
    if (amount === null) bad.push(`the XP “${xp.slice(0, 30)}” is not ${XP_RANGE}`);
    if (bad.length > 0) return void problems.push(`Line ${line}: ${bad.join('; ')}.`);
    rows.push({ line, userId: id, xp: amount ?? 0, username: null, messages: null });
  });
  checkRows(rows, problems);
  if (problems.length > 0) refuse(problems);
  return rows;
}

/**
 * The line each element of the players array begins on: JSON.parse gives no positions, so the
 * text is walked once (strings and escapes skipped) to find the array (`players` of the top object,
 * or the top array itself) and where each of its elements starts.
 */
export function elementLines(content: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let target = -1;
  let lastKey: string | null = null;
  let expectElement = false;
  for (let i = 0; i < content.length; i += 1) {
    const char = content[i];
    if (char === '\n') line += 1;
    if (char === '"') {
      let end = i + 1;
      while (end < content.length && content[end] !== '"') end += content[end] === '\\' ? 2 : 1;
      if (depth === 1) lastKey = content.slice(i + 1, end);
      if (expectElement && depth === target) lines.push(line);
      expectElement = false;
      i = end;
      continue;
    }
    if (/\s/.test(char ?? '')) continue;
    if (expectElement && depth === target && char !== ']') lines.push(line);
    expectElement = false;
    if (char === '[' || char === '{') {
      depth += 1;
      if (target < 0 && char === '[' && (depth === 1 || (depth === 2 && lastKey === 'players'))) {
        target = depth;
        expectElement = true;
      }
    } else if (char === ']' || char === '}') {
      if (depth === target) target = -2;
      depth -= 1;
    } else if (char === ',' && depth === target) expectElement = true;
  }
  return lines;
}

/** MEE6's leaderboard export: its players' ids and total XP (and names and message counts, kept for new members). */
export function parseMee6(content: string): ImportedRow[] {
  let data: unknown;
  try {
    data = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (error) {
    refuse([`It is not JSON (${error instanceof Error ? error.message : 'unreadable'}): export MEE6’s leaderboard as it is served.`]);
  }
  const players = Array.isArray(data) ? data : typeof data === 'object' && data !== null ? (data as { players?: unknown }).players : undefined;
  if (!Array.isArray(players)) refuse(['It has no `players` list: it is not MEE6’s leaderboard export.']);
  const lines = elementLines(content);
  const rows: ImportedRow[] = [];
  const problems: string[] = [];
  players.forEach((player: unknown, index) => {
    const line = lines[index] ?? 1;
    const where = `Line ${line} (player ${index + 1})`;
    if (typeof player !== 'object' || player === null) return void problems.push(`${where}: expected a player with an id and an xp.`);
    const { id, xp, username, message_count: messages } = player as Record<string, unknown>;
    const bad: string[] = [];
    const userId = typeof id === 'number' ? String(id) : id;
    if (typeof userId !== 'string' || !isSnowflake(userId)) bad.push(id === undefined ? 'the id is missing' : 'the id is not a Discord id');
    const amount = xpOf(xp);
    if (amount === null) bad.push(xp === undefined ? 'the xp is missing' : `the xp is not ${XP_RANGE}`);
    if (bad.length > 0 || typeof userId !== 'string') return void problems.push(`${where}: ${bad.join('; ')}.`);
    rows.push({
      line,
      userId,
      xp: amount ?? 0,
      username: typeof username === 'string' && username.trim() ? username.trim().slice(0, 100) : null,
      messages: typeof messages === 'number' && Number.isInteger(messages) && messages >= 0 && messages <= MAX_TOTAL_XP ? messages : null,
    });
  });
  checkRows(rows, problems);
  if (problems.length > 0) refuse(problems);
  return rows;
}

/** Reads an import of either format. */
export function parseImport(format: ImportFormat, content: string): ImportedRow[] {
  return format === 'csv' ? parseLevelCsv(content) : parseMee6(content);
}
