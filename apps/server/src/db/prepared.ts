import { createHash } from 'node:crypto';
import type { Db } from './client.ts';

interface Statement<T> {
  execute(values?: Record<string, unknown>): Promise<T>;
}

/**
 * A read the API makes on most calls (the session, a car, a person's bookings), built by Drizzle
 * once per database handle instead of once per call, and sent as a named prepared statement
 * (PostgreSQL plans it once per connection). Building the query took about a fifth of a busy
 * server's CPU (decision 014). Values go in as `sql.placeholder(name)`s.
 */
export function prepared<T>(
  name: string,
  build: (db: Db) => { prepare(name: string): Statement<T> },
): (db: Db, values?: Record<string, unknown>) => Promise<T> {
  const statements = new WeakMap<Db, Statement<T>>();
  return (db, values) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = build(db).prepare(name);
      statements.set(db, statement);
    }
    return statement.execute(values);
  };
}

const shapes = new WeakMap<Db, Map<string, Statement<unknown>>>();
/** Shapes kept per handle; past it the cache starts again (a name always has the same text). */
const MAX_SHAPES = 500;

/**
 * A statement whose text depends on the request (a search: which filters, how many values each,
 * which sort), prepared once per `shape`, a key the text is a function of. Its values are
 * placeholders, filled on each execution.
 */
export function preparedShape<T>(
  db: Db,
  shape: string,
  build: () => { prepare(name: string): Statement<T> },
): Statement<T> {
  let cache = shapes.get(db);
  if (!cache) {
    cache = new Map();
    shapes.set(db, cache);
  }
  let statement = cache.get(shape) as Statement<T> | undefined;
  if (!statement) {
    if (cache.size >= MAX_SHAPES) cache.clear();
    const name = `q_${createHash('sha1').update(shape).digest('base64url').slice(0, 20)}`;
    statement = build().prepare(name);
    cache.set(shape, statement);
  }
  return statement;
}
