CREATE TABLE "mdm_cases" (
	"id" text PRIMARY KEY NOT NULL,
	"case_key" text NOT NULL,
	"entity_type" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"records" jsonb NOT NULL,
	"entity_ids" jsonb NOT NULL,
	"score" real,
	"attributes" jsonb NOT NULL,
	"details" jsonb,
	"run_id" text,
	"assigned_to" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"resolution" jsonb,
	"overdue_notified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mdm_link_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"kind" text NOT NULL,
	"a_system" text NOT NULL,
	"a_record_id" text NOT NULL,
	"b_system" text NOT NULL,
	"b_record_id" text NOT NULL,
	"case_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mdm_overrides" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"target" text NOT NULL,
	"entity_id" text,
	"records" jsonb NOT NULL,
	"attribute" text NOT NULL,
	"value" jsonb,
	"case_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mdm_ref_aliases" (
	"domain" text NOT NULL,
	"alias" text NOT NULL,
	"code" text NOT NULL,
	CONSTRAINT "mdm_ref_aliases_domain_alias_pk" PRIMARY KEY("domain","alias")
);
--> statement-breakpoint
CREATE TABLE "mdm_ref_codes" (
	"domain" text NOT NULL,
	"code" text NOT NULL,
	"description" text,
	"aliases" jsonb NOT NULL,
	"parent" text,
	"valid_from" date,
	"valid_to" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mdm_ref_codes_domain_code_pk" PRIMARY KEY("domain","code")
);
--> statement-breakpoint
CREATE TABLE "mdm_ref_domains" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text,
	"builtin" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mdm_reports" (
	"name" text PRIMARY KEY NOT NULL,
	"definition" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mdm_cases_case_key_idx" ON "mdm_cases" USING btree ("case_key");--> statement-breakpoint
CREATE INDEX "mdm_cases_status_idx" ON "mdm_cases" USING btree ("status","entity_type");--> statement-breakpoint
CREATE UNIQUE INDEX "mdm_link_decisions_pair_idx" ON "mdm_link_decisions" USING btree ("entity_type","a_system","a_record_id","b_system","b_record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mdm_overrides_target_idx" ON "mdm_overrides" USING btree ("entity_type","target","attribute");--> statement-breakpoint
CREATE INDEX "mdm_ref_aliases_code_idx" ON "mdm_ref_aliases" USING btree ("domain","code");