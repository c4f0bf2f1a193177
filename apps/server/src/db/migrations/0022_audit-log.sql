CREATE TABLE "audit_chains" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"last_hash" text NOT NULL,
	"last_at" timestamp (3) with time zone,
	"retention_days" integer DEFAULT 365 NOT NULL,
	"pruned_seq" bigint DEFAULT 0 NOT NULL,
	"pruned_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_entries" (
	"organization_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_label" text NOT NULL,
	"ip" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"target_label" text,
	"changes" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_entries_organization_id_seq_pk" PRIMARY KEY("organization_id","seq")
);
--> statement-breakpoint
ALTER TABLE "audit_chains" ADD CONSTRAINT "audit_chains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_entries_action_idx" ON "audit_entries" USING btree ("organization_id","action","seq");--> statement-breakpoint
CREATE INDEX "audit_entries_actor_idx" ON "audit_entries" USING btree ("organization_id",lower("actor_label"),"seq");--> statement-breakpoint
CREATE INDEX "audit_entries_target_idx" ON "audit_entries" USING btree ("organization_id",lower("target_label"),"seq");--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("organization_id","at","seq");