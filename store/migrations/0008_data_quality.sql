CREATE TABLE "dqx_check_audit_log" (
	"audit_id" bigserial PRIMARY KEY NOT NULL,
	"check_id" text NOT NULL,
	"table_fqn" text,
	"action" text NOT NULL,
	"changes" jsonb NOT NULL,
	"performed_by" text NOT NULL,
	"performed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dqx_check_definitions" (
	"definition_id" text PRIMARY KEY NOT NULL,
	"table_fqn" text,
	"checks_yaml" text NOT NULL,
	"source" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dqx_checks" (
	"check_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"table_fqn" text NOT NULL,
	"criticality" text NOT NULL,
	"check_function" text NOT NULL,
	"arguments" jsonb NOT NULL,
	"filter_expr" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"user_metadata" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dqx_failure_samples" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"table_fqn" text NOT NULL,
	"sample_index" integer NOT NULL,
	"row_data" jsonb NOT NULL,
	"failed_checks" jsonb NOT NULL,
	"sampled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dqx_profiles" (
	"profile_id" text PRIMARY KEY NOT NULL,
	"table_fqn" text NOT NULL,
	"row_count" bigint NOT NULL,
	"column_count" integer NOT NULL,
	"profile" jsonb NOT NULL,
	"options" jsonb,
	"profiled_at" timestamp with time zone DEFAULT now() NOT NULL,
	"profiled_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dqx_run_results" (
	"run_id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"table_fqn" text NOT NULL,
	"total_rows" bigint NOT NULL,
	"valid_rows" bigint NOT NULL,
	"invalid_rows" bigint NOT NULL,
	"error_rows" bigint NOT NULL,
	"warning_rows" bigint NOT NULL,
	"pass_rate" double precision NOT NULL,
	"checks_applied" integer NOT NULL,
	"check_results" jsonb NOT NULL,
	"execution_time_ms" integer NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"executed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"executed_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dqx_segment_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"table_fqn" text NOT NULL,
	"segment_column" text NOT NULL,
	"segment_value" text,
	"total_rows" bigint NOT NULL,
	"valid_rows" bigint NOT NULL,
	"invalid_rows" bigint NOT NULL,
	"warning_rows" bigint NOT NULL,
	"pass_rate" double precision NOT NULL,
	"checks_applied" integer NOT NULL,
	"executed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "dqx_check_audit_log_check_idx" ON "dqx_check_audit_log" USING btree ("check_id","performed_at");--> statement-breakpoint
CREATE INDEX "dqx_check_audit_log_table_idx" ON "dqx_check_audit_log" USING btree ("table_fqn","performed_at");--> statement-breakpoint
CREATE INDEX "dqx_check_definitions_table_fqn_idx" ON "dqx_check_definitions" USING btree ("table_fqn");--> statement-breakpoint
CREATE INDEX "dqx_checks_table_fqn_idx" ON "dqx_checks" USING btree ("table_fqn");--> statement-breakpoint
CREATE UNIQUE INDEX "dqx_failure_samples_run_idx" ON "dqx_failure_samples" USING btree ("run_id","sample_index");--> statement-breakpoint
CREATE INDEX "dqx_failure_samples_table_fqn_idx" ON "dqx_failure_samples" USING btree ("table_fqn","sampled_at");--> statement-breakpoint
CREATE INDEX "dqx_profiles_table_fqn_idx" ON "dqx_profiles" USING btree ("table_fqn","profiled_at");--> statement-breakpoint
CREATE INDEX "dqx_run_results_table_fqn_idx" ON "dqx_run_results" USING btree ("table_fqn","executed_at");--> statement-breakpoint
CREATE INDEX "dqx_run_results_job_id_idx" ON "dqx_run_results" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "dqx_segment_results_run_idx" ON "dqx_segment_results" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "dqx_segment_results_table_idx" ON "dqx_segment_results" USING btree ("table_fqn");