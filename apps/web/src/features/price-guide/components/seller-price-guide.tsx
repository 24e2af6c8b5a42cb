import {
  BODY_TYPES,
  isKnownModel,
  MIN_MODEL_YEAR,
  maxModelYear,
  type BodyType,
  type PriceGuideQuery,
} from '@carmarket/shared';
import { useWatch, type Control, type FieldValues, type Path } from 'react-hook-form';

import { siteCurrency } from '../../../config/site';
import { toKm, type LengthUnit } from '../../../lib/units';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { usePriceGuide } from '../api/get-price-guide';
import { guideMoney } from '../guide-money';

/** The form's fields the guide is asked from, as the seller types them. */
interface GuideFields {
  make: string;
  model: string;
  year: number;
  mileageKm: number | null;
  bodyType: string | null;
}

/** The guide's question, once the make, model and year are there and valid; else null. */
function queryOf(fields: Partial<GuideFields>, mileageUnit: LengthUnit): PriceGuideQuery | null {
  const { make, model, year, mileageKm, bodyType } = fields;
  if (!make || !model || !isKnownModel(make, model)) return null;
  if (!Number.isInteger(year) || year! < MIN_MODEL_YEAR || year! > maxModelYear()) return null;
  const mileage =
    typeof mileageKm === 'number' && Number.isFinite(mileageKm) && mileageKm >= 0
      ? Math.round(toKm(mileageKm, mileageUnit))
      : undefined;
  return {
    make,
    model,
    year: year!,
    ...(mileage !== undefined && { mileageKm: mileage }),
    ...(bodyType &&
      BODY_TYPES.includes(bodyType as BodyType) && { bodyType: bodyType as BodyType }),
  };
}

/**
 * Beside the asking price on the add and edit forms: what similar cars sell for, asked as the
 * seller types the make, model, year and mileage (once they pause; a request whose answer no one
 * waits for is cancelled). Advice only: it never holds up saving. Read out politely when it
 * changes, and it describes the price field.
 */
export function SellerPriceGuide<Values extends FieldValues, Output>({
  control,
  mileageUnit,
}: {
  /** The form's; it has the fields named below. */
  control: Control<Values, unknown, Output>;
  mileageUnit: LengthUnit;
}) {
  const fields = useWatch({
    control,
    name: ['make', 'model', 'year', 'mileageKm', 'bodyType'] as Path<Values>[],
  }) as unknown as [string, string, number, number | null, string | null];
  const [make, model, year, mileageKm, bodyType] = fields;
  // Debounced as text: a new object at each render would never settle.
  const asked = useDebouncedValue(
    JSON.stringify(queryOf({ make, model, year, mileageKm, bodyType }, mileageUnit)),
    400,
  );
  const query = JSON.parse(asked) as PriceGuideQuery | null;
  const guide = usePriceGuide(query);
  const money = (cents: number) => guideMoney(cents, siteCurrency);
  let text: string | null = null;
  if (query && guide.data) {
    text = `Similar cars: typical range ${money(guide.data.low)}–${money(guide.data.high)}, fair price ${money(guide.data.fair)}`;
  } else if (query && guide.data === null) {
    // The car page's words (price-band.tsx) and the API's, for the same want of cars.
    text = 'Not enough similar cars to rate this price';
  }
  return (
    <span aria-live="polite" data-testid="seller-price-guide">
      {text}
    </span>
  );
}
