CREATE TABLE "contract_attachments" (
	"name" text NOT NULL,
	"table_fqn" text NOT NULL,
	"attached_by" text NOT NULL,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_attachments_name_table_fqn_pk" PRIMARY KEY("name","table_fqn")
);
--> statement-breakpoint
CREATE TABLE "contract_validations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"table_fqn" text NOT NULL,
	"status" text NOT NULL,
	"severity" text NOT NULL,
	"trigger" text NOT NULL,
	"job_id" text,
	"violation_count" integer NOT NULL,
	"sections" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_versions" (
	"name" text NOT NULL,
	"version" text NOT NULL,
	"document" jsonb NOT NULL,
	"published_by" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_versions_name_version_pk" PRIMARY KEY("name","version")
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"name" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"draft" jsonb,
	"latest_version" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "contract_attachments_table_idx" ON "contract_attachments" USING btree ("table_fqn");--> statement-breakpoint
CREATE INDEX "contract_validations_contract_idx" ON "contract_validations" USING btree ("name","created_at");--> statement-breakpoint
CREATE INDEX "contract_validations_job_idx" ON "contract_validations" USING btree ("job_id");