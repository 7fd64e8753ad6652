import { useEffect } from 'react';
import { PRODUCT_NAME } from '../../src/shared/product';
import { useMeta } from '../api/queries';

/** The product's name in the header and at the end of every tab title: "AwesomeBot Dashboard". */
export function useProductTitle(): string {
  const meta = useMeta();
  return `${meta.data?.botName ?? PRODUCT_NAME} Dashboard`;
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
