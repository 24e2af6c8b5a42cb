import type { CarStats } from '@carmarket/shared';
import { useId } from 'react';

import { plural } from './plural';

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

const WIDTH = 300;
const HEIGHT = 64;
const GAP = 2;

/** What the chart shows, in a sentence: the total, and its best day. */
export function viewsSummary(days: CarStats['viewsByDay']): string {
  const total = days.reduce((sum, point) => sum + point.views, 0);
  if (total === 0) return 'No views in the last 30 days.';
  const best = days.reduce((found, point) => (point.views > found.views ? point : found));
  if (best.views === total) {
    return `${plural(total, 'view')} in the last 30 days, on ${dayLabel(best.day)}.`;
  }
  return `${plural(total, 'view')} in the last 30 days; the most on ${dayLabel(best.day)}, with ${best.views}.`;
}

/**
 * Views a day over the last 30 days: one bar a day, scaled to the busiest; a sentence says what
 * it shows, and a table, for screen readers, every day's figure.
 */
export function CarViewsChart({ days }: { days: CarStats['viewsByDay'] }) {
  const id = useId();
  const top = Math.max(1, ...days.map((point) => point.views));
  const slot = days.length ? WIDTH / days.length : WIDTH;
  const summary = viewsSummary(days);
  const first = days[0];
  const last = days[days.length - 1];

  return (
    <figure className="mt-4">
      <figcaption id={`${id}-caption`} className="text-sm text-muted">
        {summary}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={`${id}-title ${id}-caption`}
        className="mt-2 block h-16 w-full"
      >
        <title id={`${id}-title`}>Views a day over the last 30 days</title>
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-base-300" />
        {days.map((point, index) =>
          point.views > 0 ? (
            <rect
              key={point.day}
              x={index * slot + GAP / 2}
              width={Math.max(1, slot - GAP)}
              y={HEIGHT - (point.views / top) * HEIGHT}
              height={(point.views / top) * HEIGHT}
              className="fill-primary"
            />
          ) : null,
        )}
      </svg>
      {first && last && (
        <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-muted">
          <span>{dayLabel(first.day)}</span>
          <span>{dayLabel(last.day)}</span>
        </div>
      )}
      {/* The div hides the table: a table ignores the 1 px box of .sr-only (sales-chart.tsx). */}
      <div className="sr-only">
        <table>
          <caption>Views of the car, day by day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Views</th>
            </tr>
          </thead>
          <tbody>
            {days.map((point) => (
              <tr key={point.day}>
                <th scope="row">{dayLabel(point.day)}</th>
                <td>{point.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
