ALTER TABLE "user" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "default_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_language_check" CHECK ("user"."language" IN ('en', 'de', 'fr', 'es', 'pt-BR'));--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_default_language_check" CHECK ("organizations"."default_language" IN ('en', 'de', 'fr', 'es', 'pt-BR'));