// The server the user last worked on. Kept in localStorage so the unprefixed pages
// (/economy, /settings, ...) and the user menu's Settings know where to go.
import { signal } from '@preact/signals-react';
import type { AccessLevel } from '../../src/shared/access';

const STORAGE_KEY = 'dashboard.lastServerId';

/** Reads the remembered server id; storage can be unavailable (privacy modes). */
function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The current (or last chosen) server id, or null when none was ever chosen. */
export const currentServerId = signal<string | null>(readStored());

/** Makes `serverId` the current server and remembers it across visits. */
export function chooseServer(serverId: string): void {
  if (currentServerId.peek() === serverId) return;
  currentServerId.value = serverId;
  try {
    window.localStorage.setItem(STORAGE_KEY, serverId);
  } catch {
    // Not remembered across visits; the signal still holds it for this one.
  }
}

/** The path of a server's feature page, e.g. serverPath('123', 'economy') -> /server/123/economy. */
export function serverPath(serverId: string, page: string): string {
  return `/server/${encodeURIComponent(serverId)}/${page}`;
}

/** Where a server opens for someone: its dashboard, or a plain member's own rank and inventory. */
export function serverHome(serverId: string, access: AccessLevel | undefined): string {
  return serverPath(serverId, access === 'member' ? 'inventory' : 'dashboard');
}
