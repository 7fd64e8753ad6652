import type { Services } from './services';
import { plainValue, type DescribeValue } from './versions';

/**
 * Values of a guild's settings and items in words, for "what changed meanwhile": a role id by its
 * name (@Member), a channel id by its name (#welcome), the rest as core/versions' plainValue says.
 */
export function guildValueWords(services: Services, guildId: string): DescribeValue {
  return (field, value) => {
    if (typeof value === 'string' && /roleId$/i.test(field)) return `@${services.gateway.role(guildId, value)?.name ?? value}`;
    if (typeof value === 'string' && /channelId$/i.test(field)) return `#${services.gateway.channel(guildId, value)?.name ?? value}`;
    return plainValue(field, value);
  };
}
