CREATE TABLE "glossary_links" (
	"term_id" text NOT NULL,
	"column_fqn" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "glossary_terms" (
	"term_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"abbreviation" text,
	"definition" text NOT NULL,
	"domain" text DEFAULT 'General' NOT NULL,
	"owner" text,
	"tags" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "governance_changes" (
	"change_id" bigserial PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"change_type" text NOT NULL,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"details" jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "glossary_links_term_column_idx" ON "glossary_links" USING btree ("term_id","column_fqn");--> statement-breakpoint
CREATE INDEX "governance_changes_entity_idx" ON "governance_changes" USING btree ("entity_type","entity_id");