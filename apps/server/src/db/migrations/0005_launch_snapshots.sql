ALTER TABLE "templates" ADD COLUMN "is_snapshot" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_snapshot_check" CHECK (not ("templates"."is_snapshot" and "templates"."is_global"));--> statement-breakpoint
-- Until now launch copied its template into a workspace template that the Templates list then showed (one more
-- per launch). Those copies are the checks' snapshots: mark every workspace template a check was launched with.
UPDATE "templates" SET "is_snapshot" = true WHERE NOT "is_global" AND "id" IN (SELECT "template_id" FROM "health_checks");
