CREATE TABLE "automation_dispatch" (
	"dispatcher_id" text PRIMARY KEY NOT NULL,
	"last_event_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "playbook_executions" (
	"execution_id" text PRIMARY KEY NOT NULL,
	"playbook_id" text NOT NULL,
	"playbook_name" text NOT NULL,
	"trigger" text NOT NULL,
	"event_id" bigint,
	"event" jsonb NOT NULL,
	"status" text NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"actions" jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "playbooks" (
	"playbook_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"trigger_type" text NOT NULL,
	"trigger_config" jsonb NOT NULL,
	"conditions" text DEFAULT '' NOT NULL,
	"actions" jsonb NOT NULL,
	"max_executions_per_hour" integer DEFAULT 5 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "playbook_executions_playbook_idx" ON "playbook_executions" USING btree ("playbook_id","started_at");