DROP INDEX "sso_domains_organization_id_idx";--> statement-breakpoint
ALTER TABLE "sso_domains" DROP CONSTRAINT "sso_domains_pkey";--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_organization_id_domain_pk" PRIMARY KEY("organization_id","domain");--> statement-breakpoint
-- Domains saved before verification existed get a token and stay pending until their TXT record is found.
ALTER TABLE "sso_domains" ADD COLUMN "token" text NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text);--> statement-breakpoint
ALTER TABLE "sso_domains" ALTER COLUMN "token" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_verified_domain_key" ON "sso_domains" USING btree ("domain") WHERE status = 'verified';--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_status_check" CHECK (status in ('pending', 'verified', 'failed'));--> statement-breakpoint
-- Issue 30: before this migration the SSO callback linked ANY existing account with the provider's e-mail. Links
-- made that way (an SSO account row added later than its user, unlike a just-in-time creation) are removed: SSO
-- signs in only accounts it created or that linked it themselves ('Link single sign-on'), decision 0016.
DELETE FROM "account" a USING "user" u
WHERE a.user_id = u.id AND a.provider_id LIKE 'org-%' AND a.created_at > u.created_at + interval '1 minute';
