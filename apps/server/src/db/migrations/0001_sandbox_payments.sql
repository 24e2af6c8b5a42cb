CREATE TABLE "sandbox_intent" (
	"id" text PRIMARY KEY NOT NULL,
	"client_secret" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"idempotency_key" text,
	"last_error" jsonb,
	"refunded" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_intent_client_secret_unique" ON "sandbox_intent" USING btree ("client_secret");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_intent_idempotency_unique" ON "sandbox_intent" USING btree ("idempotency_key");