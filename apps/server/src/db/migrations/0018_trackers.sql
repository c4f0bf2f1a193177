CREATE TABLE "tracker_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"api_url" text NOT NULL,
	"token" text NOT NULL,
	"webhook_secret" text NOT NULL,
	"account" text NOT NULL,
	"close_marks_done" boolean DEFAULT true NOT NULL,
	"problem" text,
	"problem_at" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_connections_kind_check" CHECK ("tracker_connections"."kind" in ('github'))
);
--> statement-breakpoint
CREATE TABLE "tracker_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action_item_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"repository" text NOT NULL,
	"number" integer,
	"url" text,
	"title" text,
	"state" text NOT NULL,
	"assignee" text,
	"assign_owner" boolean DEFAULT false NOT NULL,
	"remote_updated_at" timestamp with time zone,
	"pushed_title" text,
	"pushed_body" text,
	"problem" text,
	"problem_at" timestamp with time zone,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_links_state_check" CHECK ("tracker_links"."state" in ('creating', 'open', 'closed'))
);
--> statement-breakpoint
ALTER TABLE "tracker_connections" ADD CONSTRAINT "tracker_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_connections" ADD CONSTRAINT "tracker_connections_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_action_item_id_action_items_id_fk" FOREIGN KEY ("action_item_id") REFERENCES "public"."action_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_connection_id_tracker_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."tracker_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_connections_workspace_key" ON "tracker_connections" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_links_action_item_key" ON "tracker_links" USING btree ("action_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tracker_links_issue_key" ON "tracker_links" USING btree ("connection_id","repository","number") WHERE "tracker_links"."number" is not null;--> statement-breakpoint
CREATE INDEX "tracker_links_connection_idx" ON "tracker_links" USING btree ("connection_id");