CREATE TABLE "organization_scim" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"start" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "organization_scim_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "scim_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"user_name" text NOT NULL,
	"external_id" text,
	"given_name" text,
	"family_name" text,
	"display_name" text,
	"emails" jsonb,
	"active" boolean DEFAULT true NOT NULL,
	"created_account" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspace_members" DROP CONSTRAINT "workspace_members_status_check";--> statement-breakpoint
ALTER TABLE "organization_scim" ADD CONSTRAINT "organization_scim_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_scim" ADD CONSTRAINT "organization_scim_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_organization_user_key" ON "scim_users" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_organization_user_name_key" ON "scim_users" USING btree ("organization_id",lower("user_name"));--> statement-breakpoint
CREATE INDEX "scim_users_organization_external_id_idx" ON "scim_users" USING btree ("organization_id","external_id");--> statement-breakpoint
CREATE INDEX "scim_users_user_id_idx" ON "scim_users" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_status_check" CHECK ("workspace_members"."status" in ('active', 'pending', 'suspended'));