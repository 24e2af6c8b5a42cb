ALTER TABLE "car_notice" DROP CONSTRAINT "car_notice_kind_check";--> statement-breakpoint
CREATE INDEX "car_notice_listing_kind_idx" ON "car_notice" USING btree ("listing_id","kind","created_at");--> statement-breakpoint
ALTER TABLE "car_notice" ADD CONSTRAINT "car_notice_kind_check" CHECK ("car_notice"."kind" in ('price-drop', 'sold', 'back-on-sale'));