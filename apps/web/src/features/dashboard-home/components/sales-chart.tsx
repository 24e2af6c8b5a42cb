import { formatMoney, type DayPoint } from '@carmarket/shared';
import { useId } from 'react';

import { useElementWidth } from '../hooks/use-element-width';
import { niceMax, ticks } from './chart-scale';

const HEIGHT = 220;
const MARGIN = { top: 12, right: 16, bottom: 40, left: 72 };

const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/**
 * Sales per day over the last 30 days: a line (with the area under it) of the amount sold, the
 * days along the bottom and money up the side. Days with a sale get a dot.
 */
export function SalesChart({
  title,
  sales,
  currency,
}: {
  title: string;
  sales: DayPoint[];
  currency: string;
}) {
  const id = useId();
  const { ref, width } = useElementWidth<HTMLDivElement>(640);
  const money = (cents: number) => formatMoney(cents, currency);
  const compactMoney = (cents: number) => formatMoney(cents, currency, { precision: 'compact' });

  // Round dollars up the side, and at least $1,000 so that an empty month still has a scale.
  const top = niceMax(Math.max(1000, ...sales.map((point) => point.amountCents / 100))) * 100;
  const plotWidth = Math.max(100, width - MARGIN.left - MARGIN.right);
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const step = sales.length > 1 ? plotWidth / (sales.length - 1) : 0;
  const x = (index: number) => MARGIN.left + index * step;
  const y = (cents: number) => MARGIN.top + plotHeight - (cents / top) * plotHeight;

  const line = sales
    .map((point, index) => `${index === 0 ? 'M' : 'L'}${x(index)},${y(point.amountCents)}`)
    .join('');
  const area = sales.length ? `${line}L${x(sales.length - 1)},${y(0)}L${x(0)},${y(0)}Z` : '';
  // A date under every week on a wide screen, fewer on a phone.
  const every = width < 420 ? 10 : 7;
  const labelled = sales
    .map((point, index) => ({ point, index }))
    .filter(({ index }) => (sales.length - 1 - index) % every === 0);

  const soldCars = sales.reduce((sum, point) => sum + point.count, 0);
  const soldCents = sales.reduce((sum, point) => sum + point.amountCents, 0);
  const best = sales.reduce<DayPoint | null>(
    (found, point) => (point.amountCents > (found?.amountCents ?? 0) ? point : found),
    null,
  );
  const description =
    soldCars === 0
      ? 'No sales in the last 30 days.'
      : `${soldCars} ${soldCars === 1 ? 'car' : 'cars'} sold for ${money(soldCents)} in the last 30 days; the best day was ${dayLabel(best!.day)} with ${money(best!.amountCents)}.`;

  return (
    <figure className="rounded-box border border-base-300 bg-base-100 p-5">
      <figcaption>
        <span className="block font-semibold">{title}</span>
        <span className="mt-1 block text-sm text-muted">{description}</span>
      </figcaption>
      <div ref={ref} className="mt-4">
        <svg
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          className="block max-w-full"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {ticks(top).map((tick) => (
            <g key={tick}>
              <line
                x1={MARGIN.left}
                x2={MARGIN.left + plotWidth}
                y1={y(tick)}
                y2={y(tick)}
                className="stroke-base-300"
                strokeDasharray={tick === 0 ? undefined : '3 4'}
              />
              <text
                x={MARGIN.left - 8}
                y={y(tick)}
                textAnchor="end"
                dominantBaseline="middle"
                className="fill-muted text-xs"
              >
                {compactMoney(tick)}
              </text>
            </g>
          ))}
          <path d={area} className="fill-primary/10" />
          <path
            d={line}
            fill="none"
            className="stroke-primary"
            strokeWidth={2.5}
            strokeLinejoin="round"
            strokeLinecap="round"
          />
          {sales.map((point, index) =>
            point.count > 0 ? (
              <circle
                key={point.day}
                cx={x(index)}
                cy={y(point.amountCents)}
                r={4}
                className="fill-base-100 stroke-primary"
                strokeWidth={2.5}
              />
            ) : null,
          )}
          {labelled.map(({ point, index }) => (
            <text
              key={point.day}
              x={x(index)}
              y={HEIGHT - MARGIN.bottom + 18}
              textAnchor={index === 0 ? 'start' : index === sales.length - 1 ? 'end' : 'middle'}
              className="fill-muted text-xs"
            >
              {dayLabel(point.day)}
            </text>
          ))}
          <text
            x={MARGIN.left + plotWidth / 2}
            y={HEIGHT - 4}
            textAnchor="middle"
            className="fill-muted text-xs"
          >
            Day (UTC)
          </text>
          <text
            transform={`translate(12 ${MARGIN.top + plotHeight / 2}) rotate(-90)`}
            textAnchor="middle"
            dominantBaseline="middle"
            className="fill-muted text-xs"
          >
            Sales ({currency})
          </text>
        </svg>
      </div>
      {/* The div hides the table: a table ignores the 1 px box of .sr-only and, as tall as its
          rows, stretched the page below the footer. */}
      <div className="sr-only">
        <table>
          <caption>{title}, day by day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Cars sold</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {sales.map((point) => (
              <tr key={point.day}>
                <th scope="row">{dayLabel(point.day)}</th>
                <td>{point.count}</td>
                <td>{money(point.amountCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
