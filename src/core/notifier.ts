import { randomUUID } from 'node:crypto';
import type { APIEmbed } from 'discord.js';
import type { Clock } from './clock';
import type { Store } from '../db/store';
import type { Logger } from '../logger';
import type { Messenger } from '../bot/messenger';
import type { SecretBox } from './crypto';
import type { SettingsStore } from '../db/settings-store';
import { NOTIFICATION_EVENTS, WEBHOOK_SIGNATURE_HEADER, type NotificationEvent } from '../shared/bot-settings';
import { postWebhook, signBody } from './webhook';

/** Something worth telling a guild's moderators: posted to its log channel and POSTed to its webhook. */
export interface Notification {
  event: NotificationEvent;
  title: string;
  description: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  /** Structured details for the webhook's JSON (ids, counts). */
  data?: Record<string, unknown>;
}

/** The JSON a webhook receives. */
export interface WebhookPayload {
  id: string;
  event: NotificationEvent;
  guildId: string;
  occurredAt: string;
  title: string;
  description: string;
  data: Record<string, unknown>;
}

/** Waits before each retry of a failed delivery (then it is marked failed). */
export const WEBHOOK_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];

const COLOURS: Record<NotificationEvent, number> = {
  memberJoin: 0x2ecc71,
  memberLeave: 0x95a5a6,
  levelUp: 0x9b59b6,
  moderation: 0xe67e22,
  error: 0xe74c3c,
};

/** Statuses worth retrying: the receiver may answer later. */
function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Tells a guild's moderators what happened, when the guild switched that kind of notification on
 * (Bot Settings → Notifications): an embed in the log channel, and a JSON POST to the webhook
 * signed with the API key, retried, each delivery logged. Never throws: a notification that
 * cannot go out is logged and recorded, and the event that caused it carries on.
 */
export class Notifier {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      settings: SettingsStore;
      messenger: Messenger;
      store: Store;
      secrets: SecretBox;
      clock: Clock;
      logger: Logger;
      allowPrivateWebhooks: boolean;
      retryDelaysMs?: number[];
    },
  ) {}

  /** Posts and delivers the notification if the guild wants it. */
  async notify(guildId: string, notification: Notification): Promise<void> {
    try {
      const stored = await this.deps.settings.stored(guildId);
      const { settings } = stored;
      if (!settings[NOTIFICATION_EVENTS[notification.event].setting]) return;
      if (settings.logChannelId) {
        await this.deps.messenger.post(guildId, settings.logChannelId, { embeds: [this.embed(notification)] }, { quiet: true }).catch((error: unknown) => {
          // Not reported as an error notification: that would post to the same channel again.
          this.deps.logger.warn({ err: error, guildId, event: notification.event }, 'could not post a notification to the log channel');
        });
      }
      if (settings.webhookUrl && stored.apiKeySealed) {
        const key = this.deps.secrets.open(stored.apiKeySealed);
        if (key) this.track(this.deliver(guildId, settings.webhookUrl, key, notification));
      }
    } catch (error) {
      this.deps.logger.error({ err: error, guildId, event: notification.event }, 'notification failed');
    }
  }

  /** Waits for deliveries in flight (shutdown, tests). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private track(delivery: Promise<void>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  private embed(notification: Notification): APIEmbed {
    return {
      title: notification.title,
      description: notification.description,
      color: COLOURS[notification.event],
      ...(notification.fields?.length ? { fields: notification.fields } : {}),
      timestamp: this.deps.clock.now().toISOString(),
    };
  }

  private async deliver(guildId: string, url: string, key: string, notification: Notification): Promise<void> {
    const { WebhookDelivery } = this.deps.store.models;
    const target = new URL(url);
    const payload: WebhookPayload = {
      id: randomUUID(),
      event: notification.event,
      guildId,
      occurredAt: this.deps.clock.now().toISOString(),
      title: notification.title,
      description: notification.description,
      data: notification.data ?? {},
    };
    const body = JSON.stringify(payload);
    const headers = { [WEBHOOK_SIGNATURE_HEADER]: signBody(body, key), 'X-Webhook-Event': notification.event, 'X-Webhook-Delivery': payload.id };
    const now = () => this.deps.clock.now();
    const row = await WebhookDelivery.create({
      guildId,
      event: notification.event,
      target: `${target.origin}${target.pathname}`.slice(0, 300),
      status: 'pending',
      attempts: 0,
      responseStatus: null,
      error: null,
      createdAt: now(),
      updatedAt: now(),
    });
    const delays = this.deps.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
    for (let attempt = 1; ; attempt += 1) {
      let status: number | null = null;
      let problem: string | null;
      try {
        status = await postWebhook(target, body, headers, { allowPrivate: this.deps.allowPrivateWebhooks });
        if (status >= 200 && status < 300) {
          await row.update({ status: 'delivered', attempts: attempt, responseStatus: status, error: null, updatedAt: now() });
          return;
        }
        problem = `The receiver answered ${status}.`;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      const last = attempt > delays.length || (status !== null && !retryable(status));
      await row.update({ status: last ? 'failed' : 'pending', attempts: attempt, responseStatus: status, error: problem.slice(0, 500), updatedAt: now() });
      if (last) {
        this.deps.logger.warn({ guildId, event: notification.event, attempts: attempt, problem }, 'webhook delivery failed');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delays[attempt - 1]));
    }
  }
}
