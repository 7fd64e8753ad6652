// Facts about the product itself, in a module of their own: the dashboard's signed-out pages
// import them without loading zod (which every schema module does).

/** The bot's display name used across the dashboard when no per-server name applies. */
export const PRODUCT_NAME = 'AwesomeBot';
