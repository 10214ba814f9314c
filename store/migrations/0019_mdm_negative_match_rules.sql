CREATE TABLE "mdm_negative_match_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"type" text NOT NULL,
	"members" jsonb NOT NULL,
	"predicate" text,
	"reason" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" text NOT NULL,
	"blocked_attempts" integer DEFAULT 0 NOT NULL,
	"last_run_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mdm_negative_match_rules_entity_idx" ON "mdm_negative_match_rules" USING btree ("entity_type","status");