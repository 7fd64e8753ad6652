import { networkInterfaces } from 'node:os';

/**
 * An IPv4 address of this machine that is not loopback, if it has one: a request sent to it comes
 * from it, so a server sees a non-loopback client, as from another machine (or a container's
 * published port).
 */
export function outsideAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
}
