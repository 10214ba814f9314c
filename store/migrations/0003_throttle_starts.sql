CREATE TABLE "throttle_starts" (
	"job_id" text NOT NULL,
	"table_key" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	CONSTRAINT "throttle_starts_job_id_table_key_pk" PRIMARY KEY("job_id","table_key")
);
--> statement-breakpoint
CREATE INDEX "throttle_starts_job_time_idx" ON "throttle_starts" USING btree ("job_id","started_at");