// The part of autocannon's programmatic API the benchmarks use (autocannon ships no types).
declare module 'autocannon' {
  /** hdr-histogram-percentiles-obj: a statistic's spread. */
  export interface Histogram {
    min: number;
    max: number;
    average: number;
    stddev: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
    pipelining?: number;
    workers?: number;
  }

  export interface Result {
    url: string;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** Runs a load test; resolves with its results. */
  export default function autocannon(options: Options): Promise<Result> & { stop(): void };
}
