CREATE TABLE "dispute" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"outcome" text,
	"note" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispute_status_check" CHECK ("dispute"."status" in ('open', 'resolving', 'resolved')),
	CONSTRAINT "dispute_outcome_check" CHECK (("dispute"."status" = 'open') = ("dispute"."outcome" is null) and ("dispute"."outcome" is null or "dispute"."outcome" in ('release', 'refund')))
);
--> statement-breakpoint
CREATE TABLE "ledger_entry" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"movement" text NOT NULL,
	"account" text NOT NULL,
	"seller_id" uuid,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entry_movement_check" CHECK ("ledger_entry"."movement" in ('charge', 'release', 'payout', 'refund')),
	CONSTRAINT "ledger_entry_account_check" CHECK ("ledger_entry"."account" in ('cash', 'escrow', 'fees', 'seller')),
	CONSTRAINT "ledger_entry_seller_check" CHECK (("ledger_entry"."account" = 'seller') = ("ledger_entry"."seller_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "payout" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"seller_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"provider" text NOT NULL,
	"account_id" text NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"transfer_id" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_status_check" CHECK ("payout"."status" in ('sending', 'paid')),
	CONSTRAINT "payout_money_check" CHECK ("payout"."amount_cents" >= 0),
	CONSTRAINT "payout_paid_check" CHECK (("payout"."status" = 'paid') = ("payout"."paid_at" is not null and "payout"."transfer_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "payout_account" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"account_id" text NOT NULL,
	"status" text DEFAULT 'onboarding' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_account_status_check" CHECK ("payout_account"."status" in ('onboarding', 'ready'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_transfer" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"booking_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"seller_id" uuid NOT NULL,
	"price_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	"seller_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"state" text DEFAULT 'awaiting-handover' NOT NULL,
	"release_due_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"released_by" text,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_state_check" CHECK ("settlement"."state" in ('awaiting-handover', 'disputed', 'released', 'refunded')),
	CONSTRAINT "settlement_split_check" CHECK ("settlement"."fee_cents" >= 0 and "settlement"."seller_cents" >= 0 and "settlement"."fee_cents" + "settlement"."seller_cents" = "settlement"."price_cents"),
	CONSTRAINT "settlement_released_check" CHECK (("settlement"."state" = 'released') = ("settlement"."released_at" is not null and "settlement"."released_by" is not null)),
	CONSTRAINT "settlement_refunded_check" CHECK (("settlement"."state" = 'refunded') = ("settlement"."refunded_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "dispute" ADD CONSTRAINT "dispute_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute" ADD CONSTRAINT "dispute_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute" ADD CONSTRAINT "dispute_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entry" ADD CONSTRAINT "ledger_entry_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout" ADD CONSTRAINT "payout_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout" ADD CONSTRAINT "payout_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_account" ADD CONSTRAINT "payout_account_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement" ADD CONSTRAINT "settlement_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement" ADD CONSTRAINT "settlement_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dispute_booking_unique" ON "dispute" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "dispute_status_idx" ON "dispute" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entry_once" ON "ledger_entry" USING btree ("booking_id","movement","account");--> statement-breakpoint
CREATE INDEX "ledger_entry_seller_idx" ON "ledger_entry" USING btree ("seller_id","account");--> statement-breakpoint
CREATE INDEX "ledger_entry_account_idx" ON "ledger_entry" USING btree ("account","movement");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_booking_unique" ON "payout" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "payout_seller_idx" ON "payout" USING btree ("seller_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payout_sending_idx" ON "payout" USING btree ("created_at") WHERE "payout"."status" = 'sending';--> statement-breakpoint
CREATE UNIQUE INDEX "payout_account_provider_unique" ON "payout_account" USING btree ("provider","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_transfer_idempotency_unique" ON "sandbox_transfer" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "settlement_due_idx" ON "settlement" USING btree ("release_due_at") WHERE "settlement"."state" = 'awaiting-handover';--> statement-breakpoint
CREATE INDEX "settlement_seller_idx" ON "settlement" USING btree ("seller_id","state");--> statement-breakpoint
-- Bookings paid before hand-over existed count as handed over (there was no hand-over to wait
-- for), released now by the days passing, with the default fee (5%, rounded up): their sellers
-- are paid once they add a payout account. Nobody is mailed: nothing happened to those bookings.
INSERT INTO "settlement" ("booking_id", "seller_id", "price_cents", "fee_cents", "seller_cents", "currency", "state", "release_due_at", "released_at", "released_by")
SELECT "booking"."id", "listing"."seller_id", "booking"."price_cents", ceil("booking"."price_cents" * 5 / 100.0)::bigint, "booking"."price_cents" - ceil("booking"."price_cents" * 5 / 100.0)::bigint, "booking"."currency", 'released', "booking"."paid_at" + interval '7 days', now(), 'timer'
FROM "booking" INNER JOIN "listing" ON "listing"."id" = "booking"."listing_id" WHERE "booking"."status" = 'paid';
--> statement-breakpoint
INSERT INTO "ledger_entry" ("booking_id", "movement", "account", "seller_id", "amount_cents", "currency")
SELECT "booking_id", 'charge', 'cash', NULL::uuid, "price_cents", "currency" FROM "settlement"
UNION ALL SELECT "booking_id", 'charge', 'escrow', NULL, -"price_cents", "currency" FROM "settlement"
UNION ALL SELECT "booking_id", 'release', 'escrow', NULL, "price_cents", "currency" FROM "settlement"
UNION ALL SELECT "booking_id", 'release', 'fees', NULL, -"fee_cents", "currency" FROM "settlement"
UNION ALL SELECT "booking_id", 'release', 'seller', "seller_id", -"seller_cents", "currency" FROM "settlement";
