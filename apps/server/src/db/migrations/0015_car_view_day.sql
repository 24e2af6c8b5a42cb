CREATE TABLE "car_view_day" (
	"listing_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "car_view_day_listing_id_day_pk" PRIMARY KEY("listing_id","day"),
	CONSTRAINT "car_view_day_views_check" CHECK ("car_view_day"."views" >= 0)
);
--> statement-breakpoint
ALTER TABLE "car_view_day" ADD CONSTRAINT "car_view_day_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "car_view_day_day_idx" ON "car_view_day" USING btree ("day");