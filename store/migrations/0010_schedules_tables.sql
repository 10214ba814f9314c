CREATE TABLE "clone_schedules" (
	"schedule_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"spec" jsonb NOT NULL,
	"clone_request" jsonb NOT NULL,
	"drift_check" boolean DEFAULT false NOT NULL,
	"max_runs" integer DEFAULT 0 NOT NULL,
	"target" text DEFAULT 'temporal' NOT NULL,
	"external_job_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"clones" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"last_versions" jsonb,
	"last_clone_job_id" text,
	"last_clone_started_at" timestamp with time zone,
	"last_clone_completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clone_schedules_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "schedule_runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"schedule_id" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"outcome" text NOT NULL,
	"job_id" text,
	"reason" text,
	"versions" jsonb
);
--> statement-breakpoint
CREATE INDEX "clone_schedules_kind_idx" ON "clone_schedules" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "schedule_runs_schedule_idx" ON "schedule_runs" USING btree ("schedule_id","started_at");