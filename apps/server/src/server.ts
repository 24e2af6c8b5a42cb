import pino from 'pino';
import { warmGazetteer } from './modules/places/gazetteer.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { demoAccountsPresent } from './seed/seed.ts';

async function main() {
  const config = loadConfig();
  const logger =
    config.NODE_ENV !== 'production' && process.stdout.isTTY
      ? {
          level: config.LOG_LEVEL,
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : // Written as the pipe takes it, lines that wait joined into one write, instead of a
        // write call each: a line a request cost ~10% of a car page's throughput (decision 040).
        // Flushed on exit; a crash that kills the process outright can lose the last few.
        { level: config.LOG_LEVEL, stream: pino.destination({ dest: 1, sync: false }) };
  const { app, database } = await buildApp({ config, logger });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // app.close() drains requests, then waits for background work before the pool ends (decision 022).
    app.log.info(
      { signal },
      'shutting down: no new connections, finishing requests and background work',
    );
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  // Run by `npm start` (scripts/start.mjs), over a channel that ends when that process does.
  if (process.connected) process.once('disconnect', () => void shutdown('disconnect'));

  await app.listen({ host: config.HOST, port: config.PORT });
  // Read the place list now (~0.7 s) rather than on the first type-ahead or distance search.
  setImmediate(warmGazetteer);
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const demo = config.SEED_DEMO ? await demoAccountsPresent(database.db) : [];
  if (demo.length > 0) {
    app.log.info(
      `Demo accounts: ${demo.join(', ')}; password "${config.DEMO_PASSWORD}" (as seeded; set DEMO_PASSWORD before the first start to choose another, SEED_DEMO=false for none)`,
    );
  }
  app.log.info(
    `CarMarket is ready on http://${shownHost}:${config.PORT} (database: ${database.kind === 'pglite' ? `embedded, ${config.dataDir}/db` : 'PostgreSQL'})`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('CarMarket failed to start:', error);
  }
  process.exit(1);
});
