import * as z from 'zod';

/** One webhook delivery, as the Settings page's delivery log shows it. */
export const WebhookDeliverySchema = z.object({
  id: z.number().int(),
  event: z.string(),
  /** The URL's origin and path (never its query). */
  target: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliverySchema>;
export const WebhookDeliveryListSchema = z.array(WebhookDeliverySchema);
