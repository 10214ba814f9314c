CREATE TABLE "dq_anomalies" (
	"anomaly_id" text PRIMARY KEY NOT NULL,
	"observation_id" bigint NOT NULL,
	"table_fqn" text NOT NULL,
	"column_name" text DEFAULT '' NOT NULL,
	"metric" text NOT NULL,
	"observed_value" double precision NOT NULL,
	"expected_min" double precision NOT NULL,
	"expected_max" double precision NOT NULL,
	"baseline_mean" double precision NOT NULL,
	"baseline_stddev" double precision NOT NULL,
	"z_score" double precision NOT NULL,
	"baseline_samples" integer NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"run_id" text,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_changed_at" timestamp with time zone,
	"status_changed_by" text
);
--> statement-breakpoint
CREATE TABLE "dq_check_schedules" (
	"schedule_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"schedule_type" text NOT NULL,
	"table_fqn" text,
	"suite_id" text,
	"check_ids" jsonb,
	"cron" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dq_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"table_fqn" text,
	"job_id" text,
	"message" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dq_expectation_suites" (
	"suite_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"table_fqn" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"expectations" jsonb NOT NULL,
	"unsupported" jsonb NOT NULL,
	"last_validation" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dq_expectation_suites_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "dq_metric_observations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"table_fqn" text NOT NULL,
	"column_name" text DEFAULT '' NOT NULL,
	"metric" text NOT NULL,
	"value" double precision NOT NULL,
	"run_id" text,
	"in_baseline" boolean DEFAULT true NOT NULL,
	"false_positive" boolean DEFAULT false NOT NULL,
	"measured_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dqx_inline_rules" (
	"rule_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"table_fqn" text NOT NULL,
	"check_type" text NOT NULL,
	"column_name" text,
	"params" jsonb NOT NULL,
	"severity" text NOT NULL,
	"action" text NOT NULL,
	"runtime" text DEFAULT 'inline' NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dq_anomalies_table_idx" ON "dq_anomalies" USING btree ("table_fqn","detected_at");--> statement-breakpoint
CREATE INDEX "dq_anomalies_status_idx" ON "dq_anomalies" USING btree ("status","severity");--> statement-breakpoint
CREATE INDEX "dq_events_type_idx" ON "dq_events" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "dq_events_job_idx" ON "dq_events" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "dq_metric_observations_key_idx" ON "dq_metric_observations" USING btree ("table_fqn","column_name","metric","measured_at");--> statement-breakpoint
CREATE UNIQUE INDEX "dqx_inline_rules_table_name_idx" ON "dqx_inline_rules" USING btree ("table_fqn","name");