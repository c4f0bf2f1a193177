CREATE TABLE "sso_identities" (
	"user_id" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"how" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_identities_user_id_organization_id_pk" PRIMARY KEY("user_id","organization_id"),
	CONSTRAINT "sso_identities_how_check" CHECK (how in ('created', 'linked'))
);
--> statement-breakpoint
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
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_identities_organization_id_idx" ON "sso_identities" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_domains_verified_domain_key" ON "sso_domains" USING btree ("domain") WHERE status = 'verified';--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_status_check" CHECK (status in ('pending', 'verified', 'failed'));