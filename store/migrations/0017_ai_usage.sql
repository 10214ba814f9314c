CREATE TABLE "ai_usage" (
	"id" text PRIMARY KEY NOT NULL,
	"route" text NOT NULL,
	"job_id" text,
	"backend" text DEFAULT 'template' NOT NULL,
	"model" text,
	"budget" integer NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"failed_calls" integer DEFAULT 0 NOT NULL,
	"budget_denials" integer DEFAULT 0 NOT NULL,
	"tokens_charged" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ai_usage_job_id_idx" ON "ai_usage" USING btree ("job_id");