import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/**
 * Long downloads (a data export, a whole table as CSV) end when the server shuts down: closing
 * waits for every answer in flight, and a client that reads slowly, or not at all, would hold it
 * open for as long as it likes. Like the live streams, they are cut at `preClose`; the client
 * sees an incomplete file and asks again from the next process.
 */
export function downloadsEndedAtClose(app: FastifyInstance): <T extends Readable>(body: T) => T {
  const open = new Set<Readable>();
  app.addHook('preClose', async () => {
    for (const body of open) body.destroy();
  });
  return (body) => {
    open.add(body);
    body.once('close', () => open.delete(body));
    return body;
  };
}
