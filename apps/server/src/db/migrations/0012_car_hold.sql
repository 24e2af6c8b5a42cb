CREATE TABLE "car_hold" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"ip" text NOT NULL,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "car_hold" ADD CONSTRAINT "car_hold_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_hold" ADD CONSTRAINT "car_hold_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "car_hold" ADD CONSTRAINT "car_hold_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "car_hold_buyer_idx" ON "car_hold" USING btree ("buyer_id","held_at");--> statement-breakpoint
CREATE INDEX "car_hold_ip_idx" ON "car_hold" USING btree ("ip","expires_at");--> statement-breakpoint
CREATE INDEX "car_hold_held_at_idx" ON "car_hold" USING btree ("held_at");