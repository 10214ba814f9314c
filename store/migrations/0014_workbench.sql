CREATE TABLE "notebook_revisions" (
	"notebook_id" text NOT NULL,
	"revision" integer NOT NULL,
	"title" text NOT NULL,
	"cells" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notebook_revisions_notebook_id_revision_pk" PRIMARY KEY("notebook_id","revision")
);
--> statement-breakpoint
CREATE TABLE "notebooks" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"cells" jsonb NOT NULL,
	"version" integer NOT NULL,
	"revision" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbench_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workbench_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"caller" text NOT NULL,
	"statement_id" text NOT NULL,
	"statement" text NOT NULL,
	"state" text NOT NULL,
	"row_count" integer,
	"duration_ms" integer,
	"source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbench_statements" (
	"id" text PRIMARY KEY NOT NULL,
	"caller" text NOT NULL,
	"statement" text NOT NULL,
	"catalog" text,
	"schema" text,
	"state" text NOT NULL,
	"error_code" text,
	"error_message" text,
	"columns" jsonb,
	"rows" jsonb,
	"total_row_count" integer,
	"truncated" boolean DEFAULT false NOT NULL,
	"row_limit" integer NOT NULL,
	"duration_ms" integer,
	"source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"cancel_requested_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "workbench_history_caller_idx" ON "workbench_history" USING btree ("caller","id");--> statement-breakpoint
CREATE INDEX "workbench_statements_created_at_idx" ON "workbench_statements" USING btree ("created_at");