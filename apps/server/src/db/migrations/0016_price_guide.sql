CREATE TABLE "listing_deal" (
	"listing_id" uuid PRIMARY KEY NOT NULL,
	"fair_cents" bigint NOT NULL,
	"low_cents" bigint NOT NULL,
	"high_cents" bigint NOT NULL,
	"comparables" integer NOT NULL,
	"ratio" double precision NOT NULL,
	"rating" text NOT NULL,
	CONSTRAINT "listing_deal_rating_check" CHECK ("listing_deal"."rating" in ('great', 'good', 'fair', 'high', 'overpriced'))
);
--> statement-breakpoint
CREATE TABLE "listing_price_change" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"price_cents" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listing_price_change_money_check" CHECK ("listing_price_change"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "price_guide_fit" (
	"scope" text NOT NULL,
	"currency" text NOT NULL,
	"make" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"body_type" text DEFAULT '' NOT NULL,
	"comparables" integer NOT NULL,
	"intercept" double precision NOT NULL,
	"age_slope" double precision NOT NULL,
	"mileage_slope" double precision NOT NULL,
	"mean_mileage_km" double precision NOT NULL,
	"residual_sd" double precision NOT NULL,
	"fitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_guide_fit_scope_currency_make_model_body_type_pk" PRIMARY KEY("scope","currency","make","model","body_type"),
	CONSTRAINT "price_guide_fit_scope_check" CHECK ("price_guide_fit"."scope" in ('model', 'make_body', 'body'))
);
--> statement-breakpoint
ALTER TABLE "listing" ADD COLUMN "vin_decoded" jsonb;--> statement-breakpoint
ALTER TABLE "saved_search" ADD COLUMN "deals" text[];--> statement-breakpoint
ALTER TABLE "listing_deal" ADD CONSTRAINT "listing_deal_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_price_change" ADD CONSTRAINT "listing_price_change_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_deal_ratio_idx" ON "listing_deal" USING btree ("ratio","listing_id");--> statement-breakpoint
CREATE INDEX "listing_deal_rating_idx" ON "listing_deal" USING btree ("rating","listing_id");--> statement-breakpoint
CREATE INDEX "listing_price_change_listing_idx" ON "listing_price_change" USING btree ("listing_id","at");--> statement-breakpoint
-- Each car listed before price history was kept starts its history at its current price.
INSERT INTO "listing_price_change" ("listing_id", "price_cents", "at") SELECT "id", "reprice_cents", "created_at" FROM "listing";