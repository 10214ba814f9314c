CREATE TABLE "sync_streams" (
	"stream_id" text PRIMARY KEY NOT NULL,
	"source_catalog" text NOT NULL,
	"destination_catalog" text NOT NULL,
	"tables" jsonb NOT NULL,
	"trigger_ms" integer NOT NULL,
	"status" text NOT NULL,
	"run_id" text,
	"applied" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source_versions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cycles" integer DEFAULT 0 NOT NULL,
	"last_cycle_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
