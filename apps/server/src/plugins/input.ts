import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasControlCharacter } from '@carmarket/shared';
import { AppError } from '../lib/errors.ts';

/** How deep a JSON body may nest: ours nest three or four levels; parsers recurse per level. */
const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests deeper than `max` (brackets inside strings do not count). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Input no route can take, refused before any route sees it with a 400: JSON nested deeper than
 * MAX_JSON_DEPTH (whatever reads it next, zod, better-auth or JSON.stringify, recurses and would
 * run out of stack: a 500), and control characters in a query string (no link or form puts them
 * there; NUL in a token reached the database, which refuses it: a 500).
 */
export const inputPlugin = fp(async (app: FastifyInstance) => {
  // Fastify's own parser (with its guard against `__proto__`) does the parsing.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = raw as string;
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
      done(
        new AppError(
          400,
          'bad-request',
          `The JSON body nests too deeply (at most ${MAX_JSON_DEPTH} levels).`,
          { field: 'body' },
        ),
        undefined,
      );
      return;
    }
    void parseJson(request, body, done);
  });

  // API calls only: a page's address is the web app's to read (a way back holding a tab is
  // refused there, in the page's own words).
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      const bad = hasControlCharacter(name) || values.some((v) => hasControlCharacter(String(v)));
      if (!bad) continue;
      // A malformed name is no field: the query string as a whole is named.
      const field = hasControlCharacter(name) ? 'querystring' : name;
      const what = field === 'querystring' ? 'it' : `its ${field}`;
      throw new AppError(
        400,
        'validation-failed',
        `The address is malformed: ${what} holds a control character. Check the link and try again.`,
        { field },
      );
    }
  });
});
