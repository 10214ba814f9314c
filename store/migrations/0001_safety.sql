CREATE TABLE "clone_checks" (
	"job_id" text NOT NULL,
	"target" text NOT NULL,
	"kind" text NOT NULL,
	"schema_name" text NOT NULL,
	"table_name" text NOT NULL,
	"passed" boolean NOT NULL,
	"details" jsonb NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clone_checks_job_id_target_kind_schema_name_table_name_pk" PRIMARY KEY("job_id","target","kind","schema_name","table_name")
);
--> statement-breakpoint
CREATE TABLE "quiesce_grants" (
	"job_id" text NOT NULL,
	"catalog" text NOT NULL,
	"schema_name" text NOT NULL,
	"principal" text NOT NULL,
	"privileges" jsonb NOT NULL,
	"workspace" jsonb NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"restored_at" timestamp with time zone,
	CONSTRAINT "quiesce_grants_job_id_catalog_schema_name_principal_pk" PRIMARY KEY("job_id","catalog","schema_name","principal")
);
--> statement-breakpoint
CREATE TABLE "rollback_targets" (
	"rollback_id" uuid PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"target_label" text NOT NULL,
	"source_catalog" text,
	"workspace" jsonb NOT NULL,
	"result" jsonb,
	CONSTRAINT "rollback_targets_job_target_uq" UNIQUE("job_id","target_label")
);
--> statement-breakpoint
CREATE TABLE "source_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"source_catalog" text NOT NULL,
	"workspace_id" text NOT NULL,
	"captured_at" timestamp with time zone NOT NULL,
	"table_count" integer NOT NULL,
	"total_bytes" bigint NOT NULL,
	"tables" jsonb NOT NULL,
	"created_by" text
);
--> statement-breakpoint
ALTER TABLE "rollback_targets" ADD CONSTRAINT "rollback_targets_rollback_id_rollback_logs_id_fk" FOREIGN KEY ("rollback_id") REFERENCES "public"."rollback_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quiesce_grants_status_idx" ON "quiesce_grants" USING btree ("status");--> statement-breakpoint
CREATE INDEX "source_snapshots_catalog_idx" ON "source_snapshots" USING btree ("source_catalog","captured_at");