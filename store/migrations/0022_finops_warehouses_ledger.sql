CREATE TABLE "warehouse_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"warehouse_id" text NOT NULL,
	"event_type" text NOT NULL,
	"cluster_count" integer NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"message" text
);
--> statement-breakpoint
CREATE TABLE "warehouses" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"location" text NOT NULL,
	"cluster_size" text NOT NULL,
	"min_num_clusters" integer NOT NULL,
	"max_num_clusters" integer NOT NULL,
	"auto_stop_mins" integer NOT NULL,
	"warehouse_type" text NOT NULL,
	"enable_serverless_compute" boolean NOT NULL,
	"enable_photon" boolean NOT NULL,
	"channel" text NOT NULL,
	"tags" jsonb NOT NULL,
	"state" text NOT NULL,
	"num_clusters" integer DEFAULT 0 NOT NULL,
	"creator_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warehouses_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "finops_job_spans" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"span_key" text NOT NULL,
	"job_id" text NOT NULL,
	"job_type" text NOT NULL,
	"warehouse_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"busy_ms" bigint NOT NULL,
	"run_as" text
);
--> statement-breakpoint
CREATE TABLE "finops_list_prices" (
	"sku_name" text NOT NULL,
	"price_start_time" timestamp with time zone NOT NULL,
	"usage_unit" text NOT NULL,
	"price_usd" text NOT NULL,
	CONSTRAINT "finops_list_prices_sku_name_price_start_time_pk" PRIMARY KEY("sku_name","price_start_time")
);
--> statement-breakpoint
CREATE TABLE "finops_storage_snapshots" (
	"usage_date" date NOT NULL,
	"table_name" text NOT NULL,
	"bytes" bigint NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finops_storage_snapshots_usage_date_table_name_pk" PRIMARY KEY("usage_date","table_name")
);
--> statement-breakpoint
CREATE INDEX "warehouse_events_by_warehouse" ON "warehouse_events" USING btree ("warehouse_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "finops_job_spans_key" ON "finops_job_spans" USING btree ("span_key","warehouse_id");--> statement-breakpoint
CREATE INDEX "finops_job_spans_by_warehouse" ON "finops_job_spans" USING btree ("warehouse_id","started_at");