-- Each comment keeps the anonymity it was written under (PRODUCT-DECISIONS 3): a later settings change never
-- puts a name next to a comment written as anonymous. Existing comments take their check's current setting.
ALTER TABLE "comments" ADD COLUMN "anonymous" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "comments" co SET "anonymous" = coalesce((hc."settings"->>'allowAnonymous')::boolean, true)
  FROM "health_checks" hc WHERE hc."id" = co."health_check_id";
