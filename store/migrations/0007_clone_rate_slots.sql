CREATE TABLE "clone_rate_slots" (
	"job_id" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
