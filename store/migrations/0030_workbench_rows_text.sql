ALTER TABLE "workbench_statements" ALTER COLUMN "rows" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "workbench_statements" ALTER COLUMN "rows" SET STORAGE EXTERNAL;
