import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from './errors.ts';

/**
 * What one app measures for `GET /metrics` (decision 040), on a registry of its own: several
 * apps run in one process in the tests, and each server process answers for itself. Nothing
 * here is global; the app hands the pieces to the modules through their deps. Label values are
 * route patterns, job names and fixed words, never ids, addresses or raw paths.
 */
export interface Metrics {
  registry: Registry;
  /** One answered request: its route pattern (`unmatched` without one), method and status. */
  observeRequest(route: string | undefined, method: string, status: number, ms: number): void;
  /** One database statement's time, as the driver saw it (db/client.ts `onQuery`). */
  observeQuery(ms: number): void;
  jobs: {
    runs: Counter<'job'>;
    failures: Counter<'job'>;
    lastSuccess: Gauge<'job'>;
    duration: Histogram<'job'>;
  };
  /** Searches the search budget refused, by why: `running`, `per-minute`, `busy`. */
  searchRefusals: Counter<'reason'>;
  /** Cars held for a card payment, by outcome: `held`, `same`, `refused`, `failed`. */
  holds: Counter<'outcome'>;
  /** Successful card payments recorded, by outcome: `paid`, `refunded`, `already`, `failed`. */
  payments: Counter<'outcome'>;
  /** Refunds to a card (a sale that could not be, a dispute): `refunded`, `failed`. */
  refunds: Counter<'outcome'>;
  /** Payouts to sellers: `paid`, `failed`. */
  payouts: Counter<'outcome'>;
  /** Gauges read when scraped: set once, when the app has the pieces they read. */
  watch(sources: WatchedSources): void;
}

interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface WatchedSources {
  /** PostgreSQL's pool; embedded PGlite has none (one connection, in the process). */
  pool?: () => PoolStats;
  /** Mail waiting to be sent (one indexed query, at scrape time). */
  mailQueue: () => Promise<{ depth: number; oldestSeconds: number }>;
  /** Live streams of conversations open on this process. */
  liveStreams: () => number;
}

/** Seconds: 5 ms to 10 s, where an answer's time matters. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
const JOB_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300];

export interface MetricsOptions {
  /** The process's own (CPU, memory, event-loop lag, GC): only when something will scrape them. */
  processMetrics: boolean;
}

export function createMetrics({ processMetrics }: MetricsOptions): Metrics {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = requestHistogram();
  registry.registerMetric(requests.metric as never);

  const queries = new Histogram({
    name: 'db_query_duration_seconds',
    help: 'Time of a database statement, from the call to the answer (a pool query waits for its connection within it)',
    buckets: QUERY_BUCKETS,
    registers,
  });

  const counter = <L extends string>(name: string, help: string, label: L) =>
    new Counter({ name, help, labelNames: [label] as const, registers });

  let sources: WatchedSources | undefined;
  const mailDepth = new Gauge({
    name: 'carmarket_mail_queue_depth',
    help: 'Mail waiting to be sent (given-up mail excluded)',
    registers,
  });
  new Gauge({
    name: 'carmarket_mail_queue_oldest_seconds',
    help: 'Age of the oldest mail waiting to be sent (0 when none)',
    registers,
    async collect() {
      if (!sources) return;
      const { depth, oldestSeconds } = await sources.mailQueue();
      mailDepth.set(depth);
      this.set(oldestSeconds);
    },
  });
  new Gauge({
    name: 'carmarket_live_streams_open',
    help: 'Live streams of conversations open on this process',
    registers,
    collect() {
      if (sources) this.set(sources.liveStreams());
    },
  });

  return {
    registry,
    observeRequest: requests.observe,
    observeQuery(ms) {
      queries.observe(ms / 1000);
    },
    jobs: {
      runs: counter('carmarket_job_runs_total', 'Runs of each job', 'job'),
      failures: counter('carmarket_job_failures_total', 'Runs of each job that failed', 'job'),
      lastSuccess: new Gauge({
        name: 'carmarket_job_last_success_timestamp_seconds',
        help: 'When each job last ran through without failing (Unix time)',
        labelNames: ['job'] as const,
        registers,
      }),
      duration: new Histogram({
        name: 'carmarket_job_duration_seconds',
        help: 'Time of each job run',
        labelNames: ['job'] as const,
        buckets: JOB_BUCKETS,
        registers,
      }),
    },
    searchRefusals: counter(
      'carmarket_search_refusals_total',
      'Searches the search budget refused, by reason',
      'reason',
    ),
    holds: counter(
      'carmarket_holds_total',
      'Holds of a car for a card payment, by outcome',
      'outcome',
    ),
    payments: counter(
      'carmarket_payments_total',
      'Successful card payments recorded, by outcome',
      'outcome',
    ),
    refunds: counter('carmarket_refunds_total', 'Refunds to a card, by outcome', 'outcome'),
    payouts: counter('carmarket_payouts_total', 'Payouts to sellers, by outcome', 'outcome'),
    watch(watched) {
      sources = watched;
      // Only where there is a pool: a gauge never set would read 0 on the embedded database.
      const { pool } = watched;
      if (!pool) return;
      const poolGauge = (name: string, help: string, read: (p: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(pool()));
          },
        });
      poolGauge(
        'db_pool_connections_in_use',
        'PostgreSQL connections checked out of the pool',
        (p) => p.total - p.idle,
      );
      poolGauge(
        'db_pool_connections_idle',
        'PostgreSQL connections open and idle in the pool',
        (p) => p.idle,
      );
      poolGauge(
        'db_pool_waiting',
        'Requests waiting for a PostgreSQL connection',
        (p) => p.waiting,
      );
    },
  };
}

interface RequestSeries {
  labels: { route: string; method: string; status: string };
  /** Answers per bucket of REQUEST_BUCKETS (not cumulative), beyond the last not counted. */
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * `http_request_duration_seconds`, kept by hand: a series per (route, method, status), found by
 * one string key, its bucket counted with a few comparisons. prom-client's histogram hashes
 * its labels on every observe, even a bound child's; this is read only when scraped.
 */
function requestHistogram() {
  const name = 'http_request_duration_seconds';
  const series = new Map<string, RequestSeries>();
  const metric = {
    name,
    help: 'Time to answer a request, by route pattern, method and status',
    type: 'histogram',
    aggregator: 'sum',
    get() {
      const values: Array<{ metricName: string; labels: object; value: number }> = [];
      for (const { labels, buckets, sum, count } of series.values()) {
        let below = 0;
        REQUEST_BUCKETS.forEach((le, index) => {
          below += buckets[index]!;
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: below });
        });
        values.push({
          metricName: `${name}_bucket`,
          labels: { ...labels, le: '+Inf' },
          value: count,
        });
        values.push({ metricName: `${name}_sum`, labels, value: sum });
        values.push({ metricName: `${name}_count`, labels, value: count });
      }
      return { name, help: metric.help, type: metric.type, values, aggregator: metric.aggregator };
    },
    reset() {
      series.clear();
    },
  };
  return {
    metric,
    observe(route: string | undefined, method: string, status: number, ms: number) {
      const key = `${route ?? ''} ${method} ${status}`;
      let one = series.get(key);
      if (!one) {
        one = {
          labels: { route: route ?? 'unmatched', method, status: String(status) },
          buckets: REQUEST_BUCKETS.map(() => 0),
          sum: 0,
          count: 0,
        };
        series.set(key, one);
      }
      const seconds = ms / 1000;
      one.sum += seconds;
      one.count += 1;
      for (let index = 0; index < REQUEST_BUCKETS.length; index += 1) {
        if (seconds <= REQUEST_BUCKETS[index]!) {
          one.buckets[index]! += 1;
          break;
        }
      }
    },
  };
}

/** Counts `work` under `counter` by the outcome `outcomeOf` names, or `failed` when it throws. */
export async function countOutcome<T>(
  counter: Counter<'outcome'>,
  work: () => Promise<T>,
  outcomeOf: (result: T) => string,
  failed: (error: unknown) => string = () => 'failed',
): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    counter.inc({ outcome: failed(error) });
    throw error;
  }
  counter.inc({ outcome: outcomeOf(result) });
  return result;
}

/** A refusal the caller caused (an AppError below 500: a limit, a conflict) or a failure. */
export const refusedOrFailed = (error: unknown) =>
  error instanceof AppError && error.statusCode < 500 ? 'refused' : 'failed';
