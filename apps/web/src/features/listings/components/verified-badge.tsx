import { CheckIcon } from '../../../components/ui/icons';

/** Shown beside the seller's name when an admin has verified the seller. */
export function VerifiedBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-secondary-soft px-2 py-0.5 align-middle text-xs leading-4 font-semibold text-secondary">
      <CheckIcon className="size-3.5" strokeWidth={2.5} />
      Verified seller
    </span>
  );
}
