CREATE TABLE "audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" text,
	"action" text NOT NULL,
	"status" text NOT NULL,
	"duration_ms" integer,
	"error" text,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"job_id" text PRIMARY KEY NOT NULL,
	"job_type" text NOT NULL,
	"status" text NOT NULL,
	"source_catalog" text,
	"destination_catalog" text,
	"clone_type" text,
	"request" jsonb,
	"summary" jsonb,
	"error" text,
	"user_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "run_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"ts" timestamp with time zone DEFAULT now() NOT NULL,
	"level" text DEFAULT 'info' NOT NULL,
	"message" text NOT NULL,
	"data" jsonb
);
--> statement-breakpoint
CREATE TABLE "rollback_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rollback_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"object_type" text NOT NULL,
	"fqn" text NOT NULL,
	"existed" boolean NOT NULL,
	"version" bigint,
	"action" text NOT NULL,
	CONSTRAINT "rollback_entries_log_fqn_uq" UNIQUE("rollback_id","object_type","fqn")
);
--> statement-breakpoint
CREATE TABLE "rollback_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" text NOT NULL,
	"destination_catalog" text,
	"status" text DEFAULT 'recorded' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"message" text NOT NULL,
	"status" text,
	"job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "targets" (
	"name" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"auth_method" text NOT NULL,
	"credentials" jsonb NOT NULL,
	"warehouse_id" text NOT NULL,
	"sync_mode" text DEFAULT 'snapshot_once' NOT NULL,
	"auto_handle_masks" boolean DEFAULT false NOT NULL,
	"keep_share" boolean DEFAULT false NOT NULL,
	"extra" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rollback_entries" ADD CONSTRAINT "rollback_entries_rollback_id_rollback_logs_id_fk" FOREIGN KEY ("rollback_id") REFERENCES "public"."rollback_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_job_id_idx" ON "audit" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "audit_created_at_idx" ON "audit" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "jobs_created_at_idx" ON "jobs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "jobs_status_idx" ON "jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "run_logs_job_id_id_idx" ON "run_logs" USING btree ("job_id","id");--> statement-breakpoint
CREATE INDEX "rollback_logs_job_id_idx" ON "rollback_logs" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "notifications_created_at_idx" ON "notifications" USING btree ("created_at");