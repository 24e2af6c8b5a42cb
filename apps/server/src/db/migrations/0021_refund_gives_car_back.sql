ALTER TABLE "booking" DROP CONSTRAINT "booking_status_check";--> statement-breakpoint
ALTER TABLE "booking" DROP CONSTRAINT "booking_paid_check";--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_status_check" CHECK ("booking"."status" in ('pending', 'paid', 'cancelled', 'closed', 'refunded'));--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_paid_check" CHECK (("booking"."status" in ('paid', 'refunded')) = ("booking"."paid_at" is not null and "booking"."transaction_id" is not null));--> statement-breakpoint
-- Bookings refunded after a dispute before this migration stayed paid and their cars sold
-- (decision 037); now they are refunded and their cars back with their sellers, withdrawn (044).
UPDATE "listing" SET "status" = 'withdrawn', "advertised_at" = NULL
  WHERE "status" = 'sold' AND "id" IN (
    SELECT "booking"."listing_id" FROM "booking"
      JOIN "settlement" ON "settlement"."booking_id" = "booking"."id"
      WHERE "booking"."status" = 'paid' AND "settlement"."state" = 'refunded');--> statement-breakpoint
UPDATE "booking" SET "status" = 'refunded'
  WHERE "status" = 'paid' AND "id" IN (
    SELECT "booking_id" FROM "settlement" WHERE "state" = 'refunded');
