/** The file of a `sqlite:` URL (`:memory:` for an in-memory database), or null for any other URL (PostgreSQL). */
export function sqliteFile(url: string): string | null {
  if (!url.startsWith('sqlite:')) return null;
  return url.slice('sqlite:'.length).replace(/^\/\//, '') || ':memory:';
}
