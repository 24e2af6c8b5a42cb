CREATE TABLE "car_notice" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"old_price_cents" bigint,
	"new_price_cents" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "car_notice_kind_check" CHECK ("car_notice"."kind" in ('price-drop', 'sold'))
);
--> statement-breakpoint
CREATE TABLE "mail_opt_out" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_opt_out_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "new_car_queue" (
	"listing_id" uuid PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_car" (
	"user_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"price_at_saving_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_car_user_id_listing_id_pk" PRIMARY KEY("user_id","listing_id")
);
--> statement-breakpoint
CREATE TABLE "saved_search" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"alerts" text DEFAULT 'off' NOT NULL,
	"category_id" uuid,
	"makes" text[],
	"models" text[],
	"body_types" text[],
	"fuels" text[],
	"transmissions" text[],
	"conditions" text[],
	"year_min" integer,
	"year_max" integer,
	"price_min" bigint,
	"price_max" bigint,
	"mileage_max" integer,
	"lat" double precision,
	"lng" double precision,
	"radius_m" double precision,
	"text_query" "tsquery",
	"match_keys" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_visited_at" timestamp with time zone,
	"last_digest_at" timestamp with time zone,
	CONSTRAINT "saved_search_alerts_check" CHECK ("saved_search"."alerts" in ('off', 'daily', 'instant'))
);
--> statement-breakpoint
CREATE TABLE "saved_search_match" (
	"search_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	CONSTRAINT "saved_search_match_search_id_listing_id_pk" PRIMARY KEY("search_id","listing_id")
);
--> statement-breakpoint
ALTER TABLE "car_notice" ADD CONSTRAINT "car_notice_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_opt_out" ADD CONSTRAINT "mail_opt_out_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "new_car_queue" ADD CONSTRAINT "new_car_queue_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_car" ADD CONSTRAINT "saved_car_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_car" ADD CONSTRAINT "saved_car_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search" ADD CONSTRAINT "saved_search_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "car_notice_unsent_idx" ON "car_notice" USING btree ("created_at") WHERE "car_notice"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "saved_car_listing_idx" ON "saved_car" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "saved_car_user_idx" ON "saved_car" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "saved_search_user_idx" ON "saved_search" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "saved_search_digest_idx" ON "saved_search" USING btree ("last_digest_at") WHERE "saved_search"."alerts" = 'daily';--> statement-breakpoint
CREATE INDEX "saved_search_match_unsent_idx" ON "saved_search_match" USING btree ("search_id") WHERE "saved_search_match"."notified_at" is null;