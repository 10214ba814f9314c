CREATE TABLE "mdm_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text NOT NULL,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "mdm_models" (
	"entity_type" text PRIMARY KEY NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mdm_sources" (
	"system" text PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"table_fqn" text NOT NULL,
	"key_column" text NOT NULL,
	"columns" jsonb NOT NULL,
	"trust" integer NOT NULL,
	"updated_at_column" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mdm_audit_object_idx" ON "mdm_audit" USING btree ("object_type","object_id");--> statement-breakpoint
CREATE INDEX "mdm_sources_entity_type_idx" ON "mdm_sources" USING btree ("entity_type");