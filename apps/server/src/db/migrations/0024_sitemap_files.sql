CREATE TABLE "sitemap_file" (
	"origin" text NOT NULL,
	"name" text NOT NULL,
	"from_id" uuid,
	"to_id" uuid,
	"body" "bytea" NOT NULL,
	"built_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sitemap_file_origin_name_pk" PRIMARY KEY("origin","name")
);
