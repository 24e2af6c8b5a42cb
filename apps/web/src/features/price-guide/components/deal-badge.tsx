import { DEAL_RATING_LABELS, type DealRating } from '@carmarket/shared';
import type { CSSProperties } from 'react';

/*
 * Colours as styles, not classes: the badge is on the home page's advertised cars, and every class
 * there is paid for in the stylesheet all pages load up front (index.css), whose budget has no
 * bytes to spare. A style costs only the lazy chunk that draws the badge. Each pair of colours
 * meets WCAG AA, and the words say the rating: the colour is never all of it.
 */
const LOOKS: Record<DealRating, CSSProperties> = {
  great: { background: '#166a3a', color: '#ffffff' },
  good: { background: '#dcefe3', color: '#135c32' },
  fair: { background: '#e8edf3', color: '#172233' },
  high: { background: '#fdf0d5', color: '#6e4400' },
  overpriced: { background: '#fbe3e3', color: '#9c1d1d' },
};

/*
 * A white ring and a soft shadow set the pill off any photo: the pale ones (Good, Fair) all but
 * vanished on a light one. The ring is outside the pill's colour, so the text's contrast holds.
 */
const RING = '0 0 0 1px #fff,0 1px 3px rgb(0 0 0/.35)';

/** The car's deal rating in words on its colour ("Great deal"); nothing without a rating. */
export function DealBadge({ rating }: { rating: DealRating | null }) {
  if (!rating) return null;
  return (
    <span
      className="rounded-full px-2 py-0.5 text-xs font-semibold"
      style={{ ...LOOKS[rating], boxShadow: RING, display: 'inline-block', whiteSpace: 'nowrap' }}
      data-testid="deal-badge"
      data-rating={rating}
    >
      {DEAL_RATING_LABELS[rating]}
    </span>
  );
}
