CREATE TABLE "copq_config" (
	"id" text PRIMARY KEY NOT NULL,
	"params" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "copq_events" (
	"table_fqn" text NOT NULL,
	"type" text NOT NULL,
	"fact" text NOT NULL,
	"week" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"cost_usd" double precision NOT NULL,
	"detail" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "copq_events_table_fqn_type_fact_pk" PRIMARY KEY("table_fqn","type","fact")
);
--> statement-breakpoint
CREATE INDEX "copq_events_time_idx" ON "copq_events" USING btree ("occurred_at");