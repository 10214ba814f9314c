CREATE TABLE "clone_job_tables" (
	"job_id" text NOT NULL,
	"target" text NOT NULL,
	"schema_name" text NOT NULL,
	"table_name" text NOT NULL,
	"status" text NOT NULL,
	"format" text,
	"bytes_copied" bigint DEFAULT 0 NOT NULL,
	"files_copied" integer DEFAULT 0 NOT NULL,
	"source_version" bigint,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text,
	"result" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clone_job_tables_job_id_target_schema_name_table_name_pk" PRIMARY KEY("job_id","target","schema_name","table_name")
);
--> statement-breakpoint
CREATE TABLE "clone_table_state" (
	"dest_workspace" text NOT NULL,
	"dest_catalog" text NOT NULL,
	"schema_name" text NOT NULL,
	"table_name" text NOT NULL,
	"source_workspace" text NOT NULL,
	"source_catalog" text NOT NULL,
	"source_version" bigint,
	"job_id" text NOT NULL,
	"cloned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clone_table_state_dest_workspace_dest_catalog_schema_name_table_name_pk" PRIMARY KEY("dest_workspace","dest_catalog","schema_name","table_name")
);
--> statement-breakpoint
CREATE INDEX "clone_table_state_job_idx" ON "clone_table_state" USING btree ("job_id");