import { formatMoney } from '@carmarket/shared';

/** The asking price, large, with the original price struck through beside it. */
export function ListingPrice({
  reprice,
  orprice,
  currency,
  size = 'md',
}: {
  reprice: number;
  orprice: number;
  currency: string;
  size?: 'md' | 'lg';
}) {
  const large = size === 'lg';
  return (
    <p className="flex flex-wrap items-baseline gap-2">
      <span className="sr-only">Asking price </span>
      <span
        data-testid="listing-price"
        className={`font-extrabold tracking-tight text-primary ${large ? 'text-3xl leading-10' : 'text-2xl leading-8'}`}
      >
        {formatMoney(reprice, currency)}
      </span>
      {orprice > reprice && (
        <>
          <span className="sr-only">, originally </span>
          <del className={large ? 'text-lg text-muted' : 'text-muted'}>
            {formatMoney(orprice, currency)}
          </del>
        </>
      )}
    </p>
  );
}
