ALTER TABLE "car_hold" ADD COLUMN "browser" text;--> statement-breakpoint
CREATE INDEX "car_hold_listing_idx" ON "car_hold" USING btree ("listing_id","held_at");