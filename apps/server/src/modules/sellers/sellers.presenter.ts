import type { SellerProfile } from '@carmarket/shared';
import type { ReplyFigures, SellerAccount } from './sellers.service.ts';

/** A seller's public profile: never their address, roles or anything else of the account. */
export function presentSellerProfile(
  seller: SellerAccount,
  cars: { onSale: number; sold: number },
  replies: ReplyFigures,
): SellerProfile {
  return {
    _id: seller.id,
    name: seller.name,
    photo: seller.image,
    verified: seller.verified,
    memberSince: seller.memberSince.toISOString(),
    carsOnSale: cars.onSale,
    carsSold: cars.sold,
    medianReplyMinutes: replies.medianReplyMinutes,
    replyRate: replies.replyRate,
  };
}
