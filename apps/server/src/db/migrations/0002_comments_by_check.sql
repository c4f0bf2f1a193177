-- Comments carry their rating's check and component, so results read them by check without a lookup per comment.
ALTER TABLE "comments" ADD COLUMN "health_check_id" uuid;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "component_id" uuid;--> statement-breakpoint
UPDATE "comments" co SET "health_check_id" = r."health_check_id", "component_id" = r."component_id"
  FROM "health_check_ratings" r WHERE r."id" = co."target_id" AND co."target_type" = 'health_check_rating';--> statement-breakpoint
-- A comment whose rating is gone was already invisible (results joined through the rating).
DELETE FROM "comments" WHERE "health_check_id" IS NULL OR "component_id" IS NULL;--> statement-breakpoint
ALTER TABLE "comments" ALTER COLUMN "health_check_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ALTER COLUMN "component_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "public"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_component_id_health_check_components_id_fk" FOREIGN KEY ("component_id") REFERENCES "public"."health_check_components"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_check_component_idx" ON "comments" USING btree ("health_check_id","component_id");
