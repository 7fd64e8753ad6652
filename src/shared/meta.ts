import * as z from 'zod';

/** GET /api/meta: what the dashboard needs to build links (sandbox or Discord). Public. */
export const PublicMetaSchema = z.object({
  botName: z.string(),
  /** The running version (package.json). */
  version: z.string(),
  mode: z.enum(['sandbox', 'discord']),
  /** The application (client) id used in invite links. */
  clientId: z.string(),
  /** Base for the OAuth authorize page, e.g. https://discord.com or the sandbox's URL. */
  oauthBase: z.string(),
  /** Base for avatars and icons, e.g. https://cdn.discordapp.com. */
  cdnBase: z.string(),
  /** Base for opening a guild in the chat client, e.g. https://discord.com. */
  appBase: z.string(),
});
export type PublicMeta = z.infer<typeof PublicMetaSchema>;
