import type { ListingDetail } from '@carmarket/shared';

import { useSession } from '../../auth';
import { vinWords } from '../vin-words';

/** Names compared as people read them ("MERCEDES-BENZ" is "Mercedes-Benz"). */
const fold = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');
const OTHER = 'Other';

/**
 * Where the seller's make, model or model year disagree with what the VIN decodes as, each with
 * the listing's value. The model is compared only when the VIN's maps onto our catalogue (vPIC's
 * "328i" is our "3 Series").
 */
function disagreements(
  listing: Pick<ListingDetail, 'make' | 'model' | 'year'>,
  decoded: NonNullable<ListingDetail['vinDecoded']>,
): { word: string; listed: string }[] {
  const { catalogue } = decoded;
  const make = catalogue.make === OTHER ? decoded.make : catalogue.make;
  const makeDiffers =
    !(catalogue.make === OTHER && listing.make === OTHER) && fold(make) !== fold(listing.make);
  const modelDiffers =
    !makeDiffers && catalogue.model !== OTHER && catalogue.model !== listing.model;
  const yearDiffers = decoded.year !== undefined && decoded.year !== listing.year;
  return [
    ...(makeDiffers ? [{ word: 'make', listed: listing.make }] : []),
    ...(modelDiffers ? [{ word: 'model', listed: listing.model }] : []),
    ...(yearDiffers ? [{ word: 'model year', listed: String(listing.year) }] : []),
  ];
}

const list = (words: string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/**
 * The car page's line about its VIN (decision 033): "VIN decodes as 2003 Honda Accord EX-V6", and
 * a warning when the seller's make, model or model year disagree with it: buyers are told to check
 * with the seller; the seller, on their own car, is told which of theirs differ, to correct them.
 * Nothing until the VIN is decoded, or without one.
 */
export function VinDecodedNote({
  listing,
  className = '',
}: {
  listing: Pick<ListingDetail, 'make' | 'model' | 'year' | 'vinDecoded' | 'sellerId'>;
  className?: string;
}) {
  const { user } = useSession();
  const decoded = listing.vinDecoded;
  if (!decoded) return null;
  const words = vinWords(decoded);
  const differ = disagreements(listing, decoded);
  const verb = differ.length === 1 ? 'differs' : 'differ';
  const mine = !!user && user.id === listing.sellerId;
  return (
    <div className={className} data-testid="vin-decoded">
      <p className="text-sm">
        <span className="font-semibold">VIN decodes as</span> {words}
      </p>
      {differ.length > 0 && (
        <p className="mt-2 rounded-box border border-warning bg-warning/10 p-3 text-sm">
          {mine ? (
            <>
              <span className="font-semibold">Check your listing:</span> its{' '}
              {list(differ.map(({ word, listed }) => `${word} (${listed})`))} {verb} from what the
              VIN decodes as ({words}). Correct the listing or the VIN so that buyers see them
              agree.
            </>
          ) : (
            <>
              <span className="font-semibold">Check with the seller:</span> the{' '}
              {list(differ.map(({ word }) => word))} in this listing {verb} from what the VIN
              decodes as.
            </>
          )}
        </p>
      )}
    </div>
  );
}
