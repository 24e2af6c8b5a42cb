import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { ON_SALE_SQL } from '../../db/schema.ts';
import { haversineM } from '../search/search.service.ts';
import { uuids } from './alert-mail.ts';
import { carMatchKeysSql } from './saved-searches.service.ts';

/* Step 1 of the alert worker (alerts.ts): new cars matched against saved searches. */

/** Cars matched per statement; the queue drains in batches of this many. */
const MATCH_BATCH = 500;

/**
 * Takes a batch of queued cars and records every (saved search, car) pair that matches, with the
 * search call's own rules written over saved_search's columns (null is "any"). Searches and cars
 * meet on their match keys in one hash join (decision 010): the saved searches are read once per
 * batch, not once per car, and a car is checked only against searches naming its make (and model)
 * and those naming no make. Matches of searches with alerts off are recorded as already told.
 * A search with deal ratings matches a car rated one of them now (`listing.deal_rating`), as the
 * price guide rated it when it was listed (in that transaction, from the last fit); a car with no
 * rating matches none.
 * Answers how many cars it took from the queue.
 */
export async function matchNewCars(db: Db, batch = MATCH_BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const taken = await queryRows<{ listing_id: string }>(
      tx,
      sql`delete from new_car_queue where listing_id in (
            select listing_id from new_car_queue order by queued_at limit ${batch}
            for update skip locked)
          returning listing_id`,
    );
    if (taken.length === 0) return 0;
    const distance = haversineM(sql`s.lat`, sql`s.lng`, sql`l.lat`, sql`l.lng`);
    // Both sides are expanded to their keys first (MATERIALIZED), so PostgreSQL meets them in one
    // hash join instead of pairing every search with every car and filtering.
    await tx.execute(sql.raw('set local jit = off'));
    await tx.execute(sql`
      with cars as materialized (
        select car.*, key from listing car
        cross join unnest(${sql.raw(carMatchKeysSql('car'))}) as key
        where car.id = any(${uuids(taken.map((row) => row.listing_id))}) and car.${ON_SALE_SQL}
      ), searches as materialized (
        select search.*, key from saved_search search cross join unnest(search.match_keys) as key
      )
      insert into saved_search_match (search_id, listing_id, notified_at)
      select s.id, l.id, case when s.alerts = 'off' then now() end
      from searches s join cars l on l.key = s.key
      where (s.category_id is null or l.category_id = s.category_id)
        and (s.makes is null or l.make = any(s.makes))
        and (s.models is null or l.model = any(s.models))
        and (s.body_types is null or l.body_type = any(s.body_types))
        and (s.fuels is null or l.fuel = any(s.fuels))
        and (s.transmissions is null or l.transmission = any(s.transmissions))
        and (s.conditions is null or l.condition = any(s.conditions))
        and (s.deals is null or l.deal_rating = any(s.deals))
        and (s.year_min is null or l.year >= s.year_min)
        and (s.year_max is null or l.year <= s.year_max)
        and (s.price_min is null or l.reprice_cents >= s.price_min)
        and (s.price_max is null or l.reprice_cents <= s.price_max)
        and (s.mileage_max is null or l.mileage_km <= s.mileage_max)
        and (s.text_query is null or l.search_doc @@ s.text_query)
        and (s.lat is null or (l.lat is not null and ${distance} <= s.radius_m))`);
    return taken.length;
  });
}
