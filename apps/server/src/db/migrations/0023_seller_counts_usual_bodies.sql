CREATE TABLE "price_guide_body" (
	"currency" text NOT NULL,
	"make" text NOT NULL,
	"model" text NOT NULL,
	"body_type" text NOT NULL,
	"cars" integer NOT NULL,
	CONSTRAINT "price_guide_body_currency_make_model_pk" PRIMARY KEY("currency","make","model")
);
--> statement-breakpoint
CREATE TABLE "seller_count" (
	"seller_id" uuid PRIMARY KEY NOT NULL,
	"on_sale" integer NOT NULL,
	"sold" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "seller_count" ADD CONSTRAINT "seller_count_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each statement that writes "listing" moves its sellers' counts by what it changed: the rows it
-- took away (deleted, or as they were before an update) count -1 where they were on sale or
-- sold, the rows it left +1. Only sellers whose counts changed are written, locked in seller
-- order so two statements never wait on each other in a cycle: a hold, a price, a rating, a
-- category moved write none.
CREATE FUNCTION "seller_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "seller_count" AS "c" ("seller_id", "on_sale", "sold")
    SELECT "seller_id", count(*) FILTER (WHERE "status" IN ('available', 'reserved')),
      count(*) FILTER (WHERE "status" = 'sold')
    FROM "new_rows" WHERE "status" IN ('available', 'reserved', 'sold')
    GROUP BY "seller_id" ORDER BY "seller_id"
    ON CONFLICT ("seller_id") DO UPDATE
      SET "on_sale" = "c"."on_sale" + excluded."on_sale", "sold" = "c"."sold" + excluded."sold";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "seller_count" AS "c" ("seller_id", "on_sale", "sold")
    SELECT "seller_id", -count(*) FILTER (WHERE "status" IN ('available', 'reserved')),
      -count(*) FILTER (WHERE "status" = 'sold')
    FROM "old_rows" WHERE "status" IN ('available', 'reserved', 'sold')
    GROUP BY "seller_id" ORDER BY "seller_id"
    ON CONFLICT ("seller_id") DO UPDATE
      SET "on_sale" = "c"."on_sale" + excluded."on_sale", "sold" = "c"."sold" + excluded."sold";
  ELSE
    INSERT INTO "seller_count" AS "c" ("seller_id", "on_sale", "sold")
    SELECT "seller_id", sum("on_sale"), sum("sold") FROM (
      SELECT "seller_id", -("status" IN ('available', 'reserved'))::int AS "on_sale",
        -("status" = 'sold')::int AS "sold"
      FROM "old_rows"
      UNION ALL
      SELECT "seller_id", ("status" IN ('available', 'reserved'))::int, ("status" = 'sold')::int
      FROM "new_rows"
    ) AS "changes"
    GROUP BY "seller_id" HAVING sum("on_sale") <> 0 OR sum("sold") <> 0 ORDER BY "seller_id"
    ON CONFLICT ("seller_id") DO UPDATE
      SET "on_sale" = "c"."on_sale" + excluded."on_sale", "sold" = "c"."sold" + excluded."sold";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "seller_count_insert" AFTER INSERT ON "listing" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "seller_count_change"();
--> statement-breakpoint
CREATE TRIGGER "seller_count_update" AFTER UPDATE ON "listing"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "seller_count_change"();
--> statement-breakpoint
CREATE TRIGGER "seller_count_delete" AFTER DELETE ON "listing" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "seller_count_change"();
--> statement-breakpoint
CREATE FUNCTION "seller_count_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "seller_count";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "seller_count_truncate" AFTER TRUNCATE ON "listing"
  FOR EACH STATEMENT EXECUTE FUNCTION "seller_count_reset"();
--> statement-breakpoint
INSERT INTO "seller_count" ("seller_id", "on_sale", "sold")
SELECT "seller_id", count(*) FILTER (WHERE "status" IN ('available', 'reserved')),
  count(*) FILTER (WHERE "status" = 'sold')
FROM "listing" WHERE "status" IN ('available', 'reserved', 'sold') GROUP BY "seller_id";
--> statement-breakpoint
-- The price guide's usual body types, as the next refresh writes them (price-guide.service.ts,
-- writeUsualBodies), so a guide asked without a body type has one before that refresh.
INSERT INTO "price_guide_body" ("currency", "make", "model", "body_type", "cars")
SELECT DISTINCT ON ("currency", "make", "model") "currency", "make", "model", "body_type", "cars"
FROM (
  SELECT "currency", "make", "model", "body_type", count(*)::int AS "cars" FROM "listing"
  WHERE "body_type" IS NOT NULL AND "reprice_cents" > 0 AND "mileage_km" IS NOT NULL
    AND ("status" IN ('available', 'reserved')
      OR ("status" = 'sold' AND "updated_at" > now() - interval '12 months'))
  GROUP BY "currency", "make", "model", "body_type"
) AS "bodies"
ORDER BY "currency", "make", "model", "cars" DESC, "body_type";
