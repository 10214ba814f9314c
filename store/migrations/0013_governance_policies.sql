CREATE TABLE "access_policies" (
	"name" text PRIMARY KEY NOT NULL,
	"position" bigserial NOT NULL,
	"principals" jsonb NOT NULL,
	"allowed_sources" jsonb NOT NULL,
	"allowed_destinations" jsonb NOT NULL,
	"allowed_schemas" jsonb NOT NULL,
	"allowed_operations" jsonb NOT NULL,
	"deny" boolean DEFAULT false NOT NULL,
	"description" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plugin_states" (
	"name" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
