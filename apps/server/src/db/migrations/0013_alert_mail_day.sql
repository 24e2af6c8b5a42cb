CREATE TABLE "alert_mail_day" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"held" boolean DEFAULT false NOT NULL,
	"held_notice_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	CONSTRAINT "alert_mail_day_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "alert_mail_day" ADD CONSTRAINT "alert_mail_day_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_mail_day_day_idx" ON "alert_mail_day" USING btree ("day");