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
/** node-postgres sends a statement without a name as the unnamed one: parsed and planned per run. */
const UNNAMED = '';

/**
 * A statement whose text depends on the request (a search: which filters, how many values each,
 * which sort), built by Drizzle once per `shape`, a key the text is a function of. Its values are
 * placeholders, filled on each execution.
 *
 * Sent unnamed, PostgreSQL plans each run for its values: a plan kept for "any make" could be a
 * poor one for a rare make among a million cars. A shape whose best plan is the same for every
 * value (`planOnce`: a category's newest cars walk one index whichever the category) is named,
 * and PostgreSQL keeps its plan: planning a search over the car table's many indexes costs
 * several times running it on a small page (decision 018).
 */
export function preparedShape<T>(
  db: Db,
  shape: string,
  build: () => { prepare(name: string): Statement<T> },
  { planOnce = false } = {},
): Statement<T> {
  let cache = shapes.get(db);
  if (!cache) {
    cache = new Map();
    shapes.set(db, cache);
  }
  let statement = cache.get(shape) as Statement<T> | undefined;
  if (!statement) {
    if (cache.size >= MAX_SHAPES) cache.clear();
    const name = planOnce
      ? `q_${createHash('sha1').update(shape).digest('base64url').slice(0, 20)}`
      : UNNAMED;
    statement = build().prepare(name);
    cache.set(shape, statement);
  }
  return statement;
}
