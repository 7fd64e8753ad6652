import { useEffect, useSyncExternalStore } from 'react';
import { botName, loadBotName } from '../api/session';

/**
 * The product's name in the header and at the end of every tab title: "AwesomeBot Dashboard". It
 * reads the bot's name from GET /api/meta without the query cache, so the signed-out pages (which
 * load neither it nor zod) can name their tabs too.
 */
export function useProductTitle(): string {
  useEffect(loadBotName, []);
  const name = useSyncExternalStore(
    (onChange) => botName.subscribe(onChange),
    () => botName.peek(),
  );
  return `${name} Dashboard`;
}

/**
 * Names the browser tab after the screen: "Leveling System · Sandbox Community · AwesomeBot
 * Dashboard", so tabs, history and screen readers tell the pages (and servers) apart.
 */
export function useDocumentTitle(page: string | undefined, serverName?: string): void {
  const product = useProductTitle();
  useEffect(() => {
    document.title = [page, serverName, product].filter(Boolean).join(' · ');
  }, [page, serverName, product]);
}
