DROP INDEX "listing_onsale_filters_idx";--> statement-breakpoint
-- Search filters by the car's own rating now; nothing reads listing_deal by rating.
DROP INDEX "listing_deal_rating_idx";--> statement-breakpoint
ALTER TABLE "listing" ADD COLUMN "deal_rating" text;--> statement-breakpoint
-- Each car on sale keeps the rating the price guide gave it; written before the indexes that
-- hold the column are built, so no index is kept up row by row.
UPDATE "listing" SET "deal_rating" = "listing_deal"."rating" FROM "listing_deal" WHERE "listing_deal"."listing_id" = "listing"."id" AND "listing"."status" IN ('available', 'reserved');--> statement-breakpoint
CREATE INDEX "listing_vin_waiting_idx" ON "listing" USING btree ("created_at") WHERE vin is not null and (vin_decoded is null or (vin_decoded->>'claimedAt') is not null or (vin_decoded->>'failed') is not null);--> statement-breakpoint
CREATE INDEX "listing_onsale_filters_idx" ON "listing" USING btree ("make","body_type","fuel","transmission","year","reprice_cents","mileage_km","condition","model","deal_rating") WHERE status in ('available', 'reserved');--> statement-breakpoint
ALTER TABLE "listing" ADD CONSTRAINT "listing_deal_rating_check" CHECK ("listing"."deal_rating" is null or "listing"."deal_rating" in ('great', 'good', 'fair', 'high', 'overpriced'));