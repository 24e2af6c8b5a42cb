import { vinProblem, type VinDecode } from '@carmarket/shared';
import { useState } from 'react';

import { useDecodeVin, vinErrorMessage } from '../api/decode-vin';
import { vinWords } from '../vin-words';

/** Why the button cannot decode what is typed yet; null when it can. */
function reasonOf(vin: string): string | null {
  if (!vin) return 'Type the VIN to fill in the car from it.';
  const problem = vinProblem(vin);
  return problem ? `${problem}.`.replace(/\.\.$/, '.') : null;
}

/** The car's name on the form, as Fill from VIN sets it and the seller may change it after. */
export interface VinFields {
  make: string | undefined;
  model: string | undefined;
  year: number | string | undefined;
}

/** Whether the form still says what the VIN filled in (a year it did not decode counts). */
function stillFilled(filled: VinFields, form: VinFields): boolean {
  return (
    form.make === filled.make &&
    form.model === filled.model &&
    (filled.year === undefined || Number(form.year) === filled.year)
  );
}

/**
 * "Fill from VIN" on the car form (decision 033): decodes the VIN typed beside it and hands the
 * answer to `onDecoded`, which fills the form. The hint under the field says why it cannot be
 * pressed yet, or what was filled, for as long as the form's make, model and year (`fields`) are
 * still those: once the seller picks "Other make", "Filled in from the VIN: 2003 Honda Accord" is
 * no longer true. The server's refusals (400, 404, 429) go to `onError`, which shows them as the
 * field's error.
 */
export function useFillFromVin({
  vin: typed,
  fields,
  onDecoded,
  onError,
}: {
  vin: string | undefined;
  fields: VinFields;
  onDecoded: (decoded: VinDecode) => void;
  onError: (message: string) => void;
}) {
  const vin = (typed ?? '').trim().toUpperCase();
  const decode = useDecodeVin();
  const [filled, setFilled] = useState<({ vin: string; words: string } & VinFields) | null>(null);
  const reason = reasonOf(vin);
  const busy = decode.isPending;

  function fill() {
    if (reason || busy) return;
    decode.mutate(vin, {
      onSuccess: (decoded) => {
        onDecoded(decoded);
        setFilled({
          vin,
          words: vinWords(decoded),
          make: decoded.catalogue.make,
          model: decoded.catalogue.model,
          year: decoded.year,
        });
      },
      onError: (error) => {
        setFilled(null);
        onError(vinErrorMessage(error));
      },
    });
  }

  const hint = busy
    ? 'Decoding the VIN…'
    : filled?.vin === vin && stillFilled(filled, fields)
      ? `Filled in from the VIN: ${filled.words}. Check the fields before you save.`
      : reason;
  return { fill, busy, disabled: Boolean(reason), hint };
}

/** The button itself, beside the VIN field; described by the field's hint (and error). */
export function FillFromVinButton({
  fill,
  busy,
  disabled,
  describedBy,
}: {
  fill: () => void;
  busy: boolean;
  disabled: boolean;
  describedBy: string | undefined;
}) {
  return (
    <button
      type="button"
      className="button button-outline shrink-0"
      aria-disabled={disabled || busy || undefined}
      aria-busy={busy || undefined}
      aria-describedby={describedBy}
      onClick={fill}
    >
      {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      Fill from VIN
    </button>
  );
}
