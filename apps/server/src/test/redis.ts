import net from 'node:net';

/** The Redis the tests of shared state use (TEST_REDIS_URL, else a local one). */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether something listens at `url` (a connection within a second). */
export function redisAnswers(url: string = REDIS_URL): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Whether Redis answers; the tests that need it skip with a message when it does not. */
export async function redisIsUp(): Promise<boolean> {
  const up = await redisAnswers(REDIS_URL);
  if (!up) {
    console.warn(
      `Redis does not answer at ${REDIS_URL}: the shared rate-limit tests are skipped. Start Redis (or set TEST_REDIS_URL) to run them.`,
    );
  }
  return up;
}
