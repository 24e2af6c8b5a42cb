import { and, count, desc, eq, sql } from 'drizzle-orm';
import {
  MAX_SAVED_SEARCHES,
  SearchQuerySchema,
  searchParamsOf,
  type CreateSavedSearchInput,
  type SearchQuery,
  type UpdateSavedSearchInput,
} from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { ON_SALE_SQL, savedSearch, savedSearchMatch } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { countSearch, originOf } from '../search/search.service.ts';
import { textQueryOf } from '../search/spelling.ts';
import { lockSavesOf } from './saved-cars.service.ts';
import { savedPolicy } from './saved.policy.ts';

/** Parameters that say how to show a search, not which cars: not kept with a saved search. */
const PAGING = new Set(['cursor', 'limit', 'facets']);

/** The saved form of a search's query string: paging dropped, the rest in the order given. */
export function savedQueryOf(query: string): string {
  const params = new URLSearchParams(query);
  return [...params]
    .filter(([key]) => !PAGING.has(key))
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
}

export const parseSavedQuery = (query: string): SearchQuery =>
  SearchQuerySchema.parse(searchParamsOf(query));

const listOrNull = (values: readonly string[] | undefined) =>
  values && values.length > 0 ? [...new Set(values)] : null;

/**
 * The keys a new car must share with a search for the search to be checked (decision 010):
 * `make|model` for each make and model named, `make|*` for makes without models; a search naming
 * no make, `body:<type>` for each body type named, else `fuel:<fuel>` for each fuel, else `*`.
 * A car carries one key of each kind, so a search and a car meet on at most one key.
 */
export function matchKeysOf(query: SearchQuery): string[] {
  const makes = listOrNull(query.make);
  const models = listOrNull(query.model);
  if (makes) {
    return makes.flatMap((make) =>
      models ? models.map((model) => `${make}|${model}`) : [`${make}|*`],
    );
  }
  const bodies = listOrNull(query.bodyType);
  if (bodies) return bodies.map((body) => `body:${body}`);
  const fuels = listOrNull(query.fuel);
  if (fuels) return fuels.map((fuel) => `fuel:${fuel}`);
  return ['*'];
}

/** A car's keys, in SQL over the listing alias given (see matchKeysOf). */
export const carMatchKeysSql = (car: string) =>
  `array[${car}.make || '|' || ${car}.model, ${car}.make || '|*', 'body:' || coalesce(${car}.body_type, ''), 'fuel:' || coalesce(${car}.fuel, ''), '*']`;

/** A search's filters as saved_search columns, for matching new cars (alert-matching.ts). */
export function criteriaOf(query: SearchQuery) {
  const origin = originOf(query);
  const text = query.q ? textQueryOf(query.q) : null;
  return {
    matchKeys: matchKeysOf(query),
    categoryId: query.category ?? null,
    makes: listOrNull(query.make),
    models: listOrNull(query.model),
    bodyTypes: listOrNull(query.bodyType),
    fuels: listOrNull(query.fuel),
    transmissions: listOrNull(query.transmission),
    conditions: listOrNull(query.condition),
    deals: listOrNull(query.deal),
    yearMin: query.yearMin ?? null,
    yearMax: query.yearMax ?? null,
    priceMin: query.priceMin ?? null,
    priceMax: query.priceMax ?? null,
    mileageMax: query.mileageMax ?? null,
    lat: origin?.lat ?? null,
    lng: origin?.lng ?? null,
    radiusM: origin?.radiusM ?? null,
    textQuery: text ? sql`to_tsquery('simple', ${text})` : null,
  };
}

export async function createSavedSearch(
  db: Db,
  actor: SessionUser,
  input: CreateSavedSearchInput,
): Promise<{ id: string }> {
  const query = savedQueryOf(input.query);
  const criteria = criteriaOf(parseSavedQuery(query));
  return db.transaction(async (tx) => {
    await lockSavesOf(tx, actor.id);
    const [{ saved } = { saved: 0 }] = await tx
      .select({ saved: count() })
      .from(savedSearch)
      .where(eq(savedSearch.userId, actor.id));
    if (saved >= MAX_SAVED_SEARCHES) {
      throw conflict(
        `You have ${MAX_SAVED_SEARCHES} saved searches, the most you can keep. Delete one to save this.`,
      );
    }
    const [row] = await tx
      .insert(savedSearch)
      .values({
        userId: actor.id,
        name: input.name,
        query,
        alerts: input.alerts,
        ...criteria,
        // Drizzle takes SQL for a value; the text query is built by PostgreSQL itself.
        textQuery: criteria.textQuery as unknown as string | null,
      })
      .returning({ id: savedSearch.id });
    return { id: row!.id };
  });
}

async function ownSearch(db: Db, actor: SessionUser, id: string) {
  const [row] = await db.select().from(savedSearch).where(eq(savedSearch.id, id));
  if (!row) throw notFound('That saved search');
  authorize(savedPolicy.owns(actor, row));
  return row;
}

/**
 * Cars matched since the last visit (or since saving) that are still on sale, per search. The
 * outer row is named in full: Drizzle leaves columns of a one-table query unqualified.
 */
const newSinceVisit = sql<number>`(
  select count(*)::int from saved_search_match m
  join listing l on l.id = m.listing_id
  where m.search_id = "saved_search"."id"
    and m.matched_at > coalesce("saved_search"."last_visited_at", "saved_search"."created_at")
    and l.${ON_SALE_SQL})`;

export type SavedSearchRow = Awaited<ReturnType<typeof savedSearchesOf>>[number];

/** A person's saved searches, newest first, each with how many cars match now and how many are new. */
export async function savedSearchesOf(db: Db, userId: string) {
  const rows = await db
    .select({
      id: savedSearch.id,
      name: savedSearch.name,
      query: savedSearch.query,
      alerts: savedSearch.alerts,
      createdAt: savedSearch.createdAt,
      lastVisitedAt: savedSearch.lastVisitedAt,
      newSinceVisit,
    })
    .from(savedSearch)
    .where(eq(savedSearch.userId, userId))
    .orderBy(desc(savedSearch.createdAt));
  // One count at a time: up to 50 at once would take every connection of the pool.
  const matching: Array<{ total: number; totalIsEstimate: boolean } | null> = [];
  for (const row of rows) {
    // A query saved under older rules than today's search call's is shown without a count.
    const query = SearchQuerySchema.safeParse(searchParamsOf(row.query));
    matching.push(query.success ? await countSearch(db, query.data) : null);
  }
  return rows.map((row, i) => ({ ...row, matching: matching[i]! }));
}

export async function updateSavedSearch(
  db: Db,
  actor: SessionUser,
  id: string,
  input: UpdateSavedSearchInput,
): Promise<void> {
  const row = await ownSearch(db, actor, id);
  await db.transaction(async (tx) => {
    await tx
      .update(savedSearch)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.alerts !== undefined && { alerts: input.alerts }),
        ...(input.visited && { lastVisitedAt: new Date() }),
      })
      .where(eq(savedSearch.id, id));
    if (input.alerts !== undefined && input.alerts !== row.alerts) {
      // Alerts start from now: matches found while they were off or otherwise are not mailed late.
      await tx
        .update(savedSearchMatch)
        .set({ notifiedAt: new Date() })
        .where(and(eq(savedSearchMatch.searchId, id), sql`${savedSearchMatch.notifiedAt} is null`));
    }
  });
}

export async function deleteSavedSearch(db: Db, actor: SessionUser, id: string): Promise<void> {
  await ownSearch(db, actor, id);
  // The search's row first, as the alert worker locks it first: the other order could deadlock.
  await db.transaction(async (tx) => {
    await tx.delete(savedSearch).where(eq(savedSearch.id, id));
    await tx.delete(savedSearchMatch).where(eq(savedSearchMatch.searchId, id));
  });
}
