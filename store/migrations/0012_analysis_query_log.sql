CREATE TABLE "analysis_query_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace" text NOT NULL,
	"catalog_name" text NOT NULL,
	"schema_name" text NOT NULL,
	"table_name" text NOT NULL,
	"columns" jsonb NOT NULL,
	"purpose" text NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analysis_query_log_catalog_idx" ON "analysis_query_log" USING btree ("workspace","catalog_name","ran_at");