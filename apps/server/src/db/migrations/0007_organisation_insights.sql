CREATE TABLE "health_check_summaries" (
	"health_check_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"completed" integer NOT NULL,
	"floor" integer NOT NULL,
	"shown" boolean NOT NULL,
	"healthy" integer NOT NULL,
	"needs_improvement" integer NOT NULL,
	"fire_warning" integer NOT NULL,
	"dont_know" integer NOT NULL,
	"previous_health_check_id" uuid,
	"cells" json,
	"linked" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "health_check_tallies" (
	"health_check_id" uuid NOT NULL,
	"key" text NOT NULL,
	"order_index" integer NOT NULL,
	"healthy" integer NOT NULL,
	"needs_improvement" integer NOT NULL,
	"fire_warning" integer NOT NULL,
	"dont_know" integer NOT NULL,
	"dots" integer NOT NULL,
	"shown" boolean NOT NULL,
	"before_healthy" integer,
	"before_needs_improvement" integer,
	"before_fire_warning" integer,
	"before_dont_know" integer,
	CONSTRAINT "health_check_tallies_health_check_id_key_pk" PRIMARY KEY("health_check_id","key")
);
--> statement-breakpoint
CREATE TABLE "organization_admins" (
	"organization_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"appointed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organization_admins_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "health_check_summaries" ADD CONSTRAINT "health_check_summaries_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "public"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_check_summaries" ADD CONSTRAINT "health_check_summaries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_check_tallies" ADD CONSTRAINT "health_check_tallies_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "public"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_admins" ADD CONSTRAINT "organization_admins_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_admins" ADD CONSTRAINT "organization_admins_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_admins" ADD CONSTRAINT "organization_admins_appointed_by_user_id_fk" FOREIGN KEY ("appointed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "health_check_summaries_workspace_idx" ON "health_check_summaries" USING btree ("workspace_id","completed_at");--> statement-breakpoint
CREATE INDEX "organization_admins_user_idx" ON "organization_admins" USING btree ("user_id");