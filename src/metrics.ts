// What a self-hoster's Prometheus scrapes from GET /metrics (on only with METRICS_TOKEN): request
// latency by route pattern, the gateway's ping and events, how far the XP write-behind lags and how
// long its flushes take, the store's size, and prom-client's default process metrics. Each product
// has its own registry (tests run several products in one process).
import { Events, type Client } from 'discord.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { TtlCache } from './core/ttl-cache';
import type { Store } from './db/store';
import type { BotGateway } from './bot/gateway';
import type { Logger } from './logger';

/** The store's size is measured at most this often (pg_database_size walks the database's files). */
export const STORE_SIZE_SAMPLE_MS = 60_000;

/** Request latency buckets, in seconds: a page's API calls take milliseconds; a slow export seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Flush buckets, in seconds: a flush at rest takes a few ms, one under load up to a few hundred. */
const FLUSH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** A write-behind queue as metrics read it: what waits, for how long, and each flush. */
export interface WriteBehind {
  /** How long the oldest waiting write has waited (ms). */
  oldestPendingAgeMs(): number;
  pendingCount(): number;
  observeFlushes(observer: (flush: { ms: number; ok: boolean }) => void): void;
}

/** What the metrics read. */
export interface MetricsSources {
  store: Pick<Store, 'sizeBytes'>;
  gateway: Pick<BotGateway, 'health'>;
  client: Client | null;
  /** The XP and coin write-behind (leveling's accruals). */
  accruals: WriteBehind;
  logger: Logger;
}

/** The product's metrics: the registry /metrics serves, and what the HTTP face records into it. */
export interface ProductMetrics {
  registry: Registry;
  /** Records one answered request; `route` is its pattern (`/api/servers/:guildId/settings`), never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

/** Builds the registry and starts recording (gateway events, XP flushes) into it. */
export function createMetrics(sources: MetricsSources): ProductMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'bot_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });

  new Gauge({
    name: 'bot_gateway_ping_seconds',
    help: "The Discord gateway's heartbeat round trip (NaN until the first heartbeat)",
    registers,
    collect() {
      const { ping } = sources.gateway.health();
      this.set(ping >= 0 ? ping / 1000 : Number.NaN);
    },
  });
  const events = new Counter({
    name: 'bot_gateway_events_total',
    help: 'Gateway dispatch events received, by type (rate() gives events per second)',
    labelNames: ['type'] as const,
    registers,
  });
  sources.client?.on(Events.Raw, (packet: { t?: string | null }) => {
    if (packet.t) events.inc({ type: packet.t });
  });

  new Gauge({
    name: 'bot_accruals_flush_lag_seconds',
    help: 'Age of the oldest XP and coin accrual not yet written to the store',
    registers,
    collect() {
      this.set(sources.accruals.oldestPendingAgeMs() / 1000);
    },
  });
  new Gauge({
    name: 'bot_accruals_pending_members',
    help: 'Members with XP or coins waiting to be written',
    registers,
    collect() {
      this.set(sources.accruals.pendingCount());
    },
  });
  const flushes = new Histogram({
    name: 'bot_accruals_flush_duration_seconds',
    help: 'Duration of each XP and coin flush that had something to write, by outcome (ok, failed)',
    labelNames: ['outcome'] as const,
    buckets: FLUSH_BUCKETS,
    registers,
  });
  sources.accruals.observeFlushes(({ ms, ok }) => flushes.observe({ outcome: ok ? 'ok' : 'failed' }, ms / 1000));

  const sizes = new TtlCache<number>(STORE_SIZE_SAMPLE_MS);
  new Gauge({
    name: 'bot_store_size_bytes',
    help: `Size of the store: the SQLite file and its write-ahead log, or pg_database_size (sampled every ${STORE_SIZE_SAMPLE_MS / 1000} s)`,
    registers,
    async collect() {
      try {
        this.set(await sizes.get('store', () => sources.store.sizeBytes()));
      } catch (error) {
        sources.logger.warn({ err: error }, 'could not measure the store size');
      }
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route, status: String(status) }, seconds);
    },
  };
}
