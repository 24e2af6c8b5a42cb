ALTER TABLE "user" DROP CONSTRAINT "user_role_check";--> statement-breakpoint
DROP INDEX "user_role_idx";--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "roles" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Every account keeps the role it had, now as the first (and only) of its roles (decision 016).
UPDATE "user" SET "roles" = ARRAY["role"] WHERE "role" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "user_roles_idx" ON "user" USING gin ("roles");--> statement-breakpoint
ALTER TABLE "user" DROP COLUMN "role";--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_roles_check" CHECK ("user"."roles" <@ array['Buyer', 'Seller', 'admin']::text[]);