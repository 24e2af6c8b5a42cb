import { useSeller } from '../api/get-seller';
import { memberSinceText, replyTimeText } from './seller-words';

/**
 * Under the seller's name on a car page: "Member since March 2024 · Usually replies within 2
 * hours", from the seller's profile, asked once the car has shown (nothing while it loads or
 * if it fails: the car page does not wait for it). Its line keeps its height meanwhile.
 */
export function SellerFacts({
  sellerId,
  className = '',
}: {
  sellerId: string;
  className?: string;
}) {
  const { data } = useSeller(sellerId);
  const facts = data
    ? [memberSinceText(data.memberSince), replyTimeText(data.medianReplyMinutes)].filter(Boolean)
    : [];
  return (
    <p className={`min-h-5 text-sm text-muted ${className}`} data-testid="seller-facts">
      {facts.join(' · ')}
    </p>
  );
}
