import { useId } from 'react';

import { useElementWidth } from '../hooks/use-element-width';
import { niceMax } from './chart-scale';

export interface Bar {
  label: string;
  value: number;
}

const ROW = 36;
const BAR = 22;
const VALUE_ROOM = 56;

/**
 * Horizontal bars, one per category, with the value at the end of each. A figure with a caption;
 * the drawing has a title and a description, and a visually hidden table carries the numbers.
 */
export function BarChart({
  title,
  bars,
  format = String,
  valueHeading = 'Count',
  tone = 'primary',
}: {
  title: string;
  bars: Bar[];
  format?: (value: number) => string;
  valueHeading?: string;
  tone?: 'primary' | 'secondary';
}) {
  const id = useId();
  const { ref, width } = useElementWidth<HTMLDivElement>(480);
  const top = niceMax(Math.max(0, ...bars.map((bar) => bar.value)));
  // Room for the longest label (about 7.5 px a character at 14 px), but never most of the chart.
  const longest = Math.max(...bars.map((bar) => bar.label.length));
  const labelWidth = Math.min(Math.ceil(longest * 7.5) + 14, Math.round(width * 0.45));
  const room = Math.max(40, width - labelWidth - VALUE_ROOM);
  const height = bars.length * ROW;
  const total = bars.reduce((sum, bar) => sum + bar.value, 0);
  const description =
    total === 0
      ? 'Nothing to show yet: every figure is zero.'
      : bars.map((bar) => `${bar.label}: ${format(bar.value)}`).join('; ');

  return (
    <figure className="rounded-box border border-base-300 bg-base-100 p-5">
      <figcaption className="font-semibold">{title}</figcaption>
      <div ref={ref} className="mt-4">
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          className="block max-w-full overflow-visible"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {bars.map((bar, index) => {
            const y = index * ROW;
            const length = bar.value === 0 ? 0 : Math.max(3, (bar.value / top) * room);
            return (
              <g key={bar.label}>
                <text
                  x={labelWidth - 10}
                  y={y + ROW / 2}
                  dominantBaseline="middle"
                  textAnchor="end"
                  className="fill-base-content text-sm"
                >
                  {bar.label}
                </text>
                <rect
                  x={labelWidth}
                  y={y + (ROW - BAR) / 2}
                  width={room}
                  height={BAR}
                  rx={4}
                  className="fill-base-200"
                />
                <rect
                  x={labelWidth}
                  y={y + (ROW - BAR) / 2}
                  width={length}
                  height={BAR}
                  rx={4}
                  className={tone === 'primary' ? 'fill-primary' : 'fill-secondary'}
                />
                <text
                  x={labelWidth + length + 8}
                  y={y + ROW / 2}
                  dominantBaseline="middle"
                  className="fill-base-content text-sm font-semibold"
                >
                  {format(bar.value)}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      {/* The div hides the table (a table ignores the 1 px box of .sr-only; see SalesChart). */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">{valueHeading}</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.label}>
                <th scope="row">{bar.label}</th>
                <td>{format(bar.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
