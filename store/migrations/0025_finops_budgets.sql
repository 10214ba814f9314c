CREATE TABLE "finops_budget_alerts" (
	"budget_id" uuid NOT NULL,
	"period" text NOT NULL,
	"level" text NOT NULL,
	"utilization_pct" double precision NOT NULL,
	"actual_usd" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"webhook_attempts" integer DEFAULT 0 NOT NULL,
	"webhook_claimed_at" timestamp with time zone,
	"webhook_delivered_at" timestamp with time zone,
	"webhook_error" text,
	CONSTRAINT "finops_budget_alerts_budget_id_period_level_pk" PRIMARY KEY("budget_id","period","level")
);
--> statement-breakpoint
CREATE TABLE "finops_budgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"period" text DEFAULT 'monthly' NOT NULL,
	"category" text NOT NULL,
	"amount_usd" double precision NOT NULL,
	"alert_threshold_pct" double precision DEFAULT 80 NOT NULL,
	"scope" jsonb,
	"webhook_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "finops_budget_alerts" ADD CONSTRAINT "finops_budget_alerts_budget_id_finops_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."finops_budgets"("id") ON DELETE cascade ON UPDATE no action;