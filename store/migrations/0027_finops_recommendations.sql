CREATE TABLE "finops_recommendations" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"title" text NOT NULL,
	"action" jsonb NOT NULL,
	"evidence" jsonb NOT NULL,
	"savings_usd_month" double precision,
	"benefit" text NOT NULL,
	"confidence" text NOT NULL,
	"effort" text NOT NULL,
	"status" text NOT NULL,
	"found" boolean DEFAULT true NOT NULL,
	"suppressed_until" timestamp with time zone,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"suggested_by" text,
	"suggested_at" timestamp with time zone,
	"apply_job_id" text,
	"applied_by" text,
	"applied_at" timestamp with time zone,
	"apply_result" jsonb,
	"error" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "finops_recommendations_status_idx" ON "finops_recommendations" USING btree ("status");