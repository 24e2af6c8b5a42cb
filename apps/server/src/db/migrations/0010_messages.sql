CREATE TABLE "conversation" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"seller_id" uuid NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"buyer_unread" integer DEFAULT 0 NOT NULL,
	"seller_unread" integer DEFAULT 0 NOT NULL,
	"buyer_read_seq" bigint DEFAULT 0 NOT NULL,
	"seller_read_seq" bigint DEFAULT 0 NOT NULL,
	"buyer_unread_since" timestamp with time zone,
	"seller_unread_since" timestamp with time zone,
	"buyer_mailed_at" timestamp with time zone,
	"seller_mailed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_members_check" CHECK ("conversation"."buyer_id" <> "conversation"."seller_id"),
	CONSTRAINT "conversation_unread_check" CHECK ("conversation"."buyer_unread" >= 0 and "conversation"."seller_unread" >= 0)
);
--> statement-breakpoint
CREATE TABLE "conversation_event" (
	"user_id" uuid NOT NULL,
	"no" bigint NOT NULL,
	"conversation_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"message_id" uuid,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_event_user_id_no_pk" PRIMARY KEY("user_id","no"),
	CONSTRAINT "conversation_event_kind_check" CHECK ("conversation_event"."kind" in ('message', 'read', 'conversation'))
);
--> statement-breakpoint
CREATE TABLE "conversation_event_counter" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"last_no" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_report" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"reporter_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid
);
--> statement-breakpoint
CREATE TABLE "message" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "message_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"conversation_id" uuid NOT NULL,
	"sender_id" uuid NOT NULL,
	"kind" text DEFAULT 'text' NOT NULL,
	"body" text NOT NULL,
	"booking_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_kind_check" CHECK ("message"."kind" in ('text', 'booking')),
	CONSTRAINT "message_body_check" CHECK (char_length("message"."body") between 1 and 4000)
);
--> statement-breakpoint
CREATE TABLE "message_block" (
	"seller_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_block_seller_id_buyer_id_pk" PRIMARY KEY("seller_id","buyer_id")
);
--> statement-breakpoint
ALTER TABLE "conversation" ADD CONSTRAINT "conversation_listing_id_listing_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listing"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation" ADD CONSTRAINT "conversation_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation" ADD CONSTRAINT "conversation_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_event_counter" ADD CONSTRAINT "conversation_event_counter_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_report" ADD CONSTRAINT "conversation_report_conversation_id_conversation_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversation"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_report" ADD CONSTRAINT "conversation_report_reporter_id_user_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_report" ADD CONSTRAINT "conversation_report_resolved_by_user_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_conversation_id_conversation_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversation"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_sender_id_user_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."user"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message" ADD CONSTRAINT "message_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_block" ADD CONSTRAINT "message_block_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_block" ADD CONSTRAINT "message_block_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_listing_buyer_unique" ON "conversation" USING btree ("listing_id","buyer_id");--> statement-breakpoint
CREATE INDEX "conversation_buyer_idx" ON "conversation" USING btree ("buyer_id","last_seq");--> statement-breakpoint
CREATE INDEX "conversation_seller_idx" ON "conversation" USING btree ("seller_id","last_seq");--> statement-breakpoint
CREATE INDEX "conversation_buyer_unread_idx" ON "conversation" USING btree ("buyer_unread_since") WHERE "conversation"."buyer_unread_since" is not null;--> statement-breakpoint
CREATE INDEX "conversation_seller_unread_idx" ON "conversation" USING btree ("seller_unread_since") WHERE "conversation"."seller_unread_since" is not null;--> statement-breakpoint
CREATE INDEX "conversation_event_created_idx" ON "conversation_event" USING brin ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_report_open_unique" ON "conversation_report" USING btree ("conversation_id","reporter_id") WHERE "conversation_report"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "conversation_report_created_idx" ON "conversation_report" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "conversation_report_conversation_idx" ON "conversation_report" USING btree ("conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "message_seq_unique" ON "message" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "message_conversation_idx" ON "message" USING btree ("conversation_id","seq");