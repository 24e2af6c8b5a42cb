CREATE TABLE "user_count" (
	"role" text PRIMARY KEY NOT NULL,
	"live" integer NOT NULL
);
--> statement-breakpoint
-- Each statement that writes "user" moves the counts by what it changed: the rows it took away
-- (deleted, or live before an update) count -1 for each role they held and for '*', the rows it
-- left live +1. Rows are locked in role order, so two statements never wait on each other in a
-- cycle; a statement that changes no live account's roles (a new name, a verification) locks none.
CREATE FUNCTION "user_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "user_count" AS "c" ("role", "live")
    SELECT "role", count(*) FROM "new_rows", unnest("roles" || '*'::text) AS "role"
    WHERE "deleted_at" IS NULL GROUP BY "role" ORDER BY "role"
    ON CONFLICT ("role") DO UPDATE SET "live" = "c"."live" + excluded."live";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "user_count" AS "c" ("role", "live")
    SELECT "role", -count(*) FROM "old_rows", unnest("roles" || '*'::text) AS "role"
    WHERE "deleted_at" IS NULL GROUP BY "role" ORDER BY "role"
    ON CONFLICT ("role") DO UPDATE SET "live" = "c"."live" + excluded."live";
  ELSE
    INSERT INTO "user_count" AS "c" ("role", "live")
    SELECT "role", sum("delta") FROM (
      SELECT "role", -1 AS "delta" FROM "old_rows", unnest("roles" || '*'::text) AS "role"
      WHERE "deleted_at" IS NULL
      UNION ALL
      SELECT "role", 1 FROM "new_rows", unnest("roles" || '*'::text) AS "role"
      WHERE "deleted_at" IS NULL
    ) AS "changes"
    GROUP BY "role" HAVING sum("delta") <> 0 ORDER BY "role"
    ON CONFLICT ("role") DO UPDATE SET "live" = "c"."live" + excluded."live";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "user_count_insert" AFTER INSERT ON "user" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "user_count_change"();
--> statement-breakpoint
CREATE TRIGGER "user_count_update" AFTER UPDATE ON "user"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "user_count_change"();
--> statement-breakpoint
CREATE TRIGGER "user_count_delete" AFTER DELETE ON "user" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "user_count_change"();
--> statement-breakpoint
CREATE FUNCTION "user_count_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "user_count";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "user_count_truncate" AFTER TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION "user_count_reset"();
--> statement-breakpoint
INSERT INTO "user_count" ("role", "live")
SELECT "role", count(*) FROM "user", unnest("roles" || '*'::text) AS "role"
WHERE "deleted_at" IS NULL GROUP BY "role";
