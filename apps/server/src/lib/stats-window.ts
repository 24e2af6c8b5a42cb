import { sql } from 'drizzle-orm';
import { CAR_STATS_DAYS } from '@carmarket/shared';

/*
 * The window a car's stats cover (CarStatsSchema): the last CAR_STATS_DAYS UTC days, today
 * included. One definition for the stats page (modules/stats) and My cars' rows (listings).
 */

/** Today, as a UTC date. */
export const statsToday = sql`(now() at time zone 'utc')::date`;
/** The window's first day, as a UTC date (for `car_view_day.day`). */
export const statsFirstDay = sql`(${statsToday} - ${sql.raw(String(CAR_STATS_DAYS - 1))})`;
/** The window's first moment (for `created_at`). */
export const statsSince = sql`(${statsFirstDay}::timestamp at time zone 'utc')`;
