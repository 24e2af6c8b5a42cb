ALTER TABLE "booking" ADD COLUMN "closed_reason" text;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "request_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_request_key" ON "booking" USING btree ("buyer_id","request_key");--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_closed_reason_check" CHECK ("booking"."closed_reason" is null or "booking"."closed_reason" in ('sold', 'withdrawn', 'removed', 'seller-deleted'));--> statement-breakpoint
-- Bookings closed before the reason was kept: a sold or withdrawn car tells why (neither status
-- changes again). A removed car may have been withdrawn first, so its bookings stay unexplained.
UPDATE "booking" SET "closed_reason" = "listing"."status" FROM "listing" WHERE "booking"."listing_id" = "listing"."id" AND "booking"."status" = 'closed' AND "listing"."status" IN ('sold', 'withdrawn');
