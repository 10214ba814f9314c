CREATE TABLE "compliance_assessments" (
	"assessment_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"framework_id" text NOT NULL,
	"framework_name" text NOT NULL,
	"framework_version" text NOT NULL,
	"total_controls" integer NOT NULL,
	"met_controls" integer NOT NULL,
	"partial_controls" integer NOT NULL,
	"gap_controls" integer NOT NULL,
	"score" double precision NOT NULL,
	"assessed_by" text NOT NULL,
	"assessed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "compliance_evidence" (
	"evidence_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"assessment_id" uuid NOT NULL,
	"framework_id" text NOT NULL,
	"control_id" text NOT NULL,
	"control_name" text NOT NULL,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"evidence_type" text NOT NULL,
	"source" jsonb NOT NULL,
	"evidence_count" integer NOT NULL,
	"fresh_count" integer NOT NULL,
	"newest_at" timestamp with time zone,
	"freshness_days" integer NOT NULL,
	"state" text NOT NULL,
	"summary" text NOT NULL,
	"position" integer NOT NULL,
	"collected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "compliance_frameworks" (
	"framework_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"document" jsonb NOT NULL,
	"loaded_by" text NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "compliance_evidence" ADD CONSTRAINT "compliance_evidence_assessment_id_compliance_assessments_assessment_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."compliance_assessments"("assessment_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "compliance_assessments_fw_idx" ON "compliance_assessments" USING btree ("framework_id","assessed_at");--> statement-breakpoint
CREATE INDEX "compliance_evidence_assessment_idx" ON "compliance_evidence" USING btree ("assessment_id");