ALTER TABLE "loop_questions" ADD COLUMN "translations" jsonb;--> statement-breakpoint
ALTER TABLE "loops" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "loops" ADD CONSTRAINT "loops_language_check" CHECK ("loops"."language" in ('en', 'de', 'fr', 'es', 'pt-BR'));