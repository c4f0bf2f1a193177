CREATE TABLE "mail_bodies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "html" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "body_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "personal" text;--> statement-breakpoint
ALTER TABLE "mail_bodies" ADD CONSTRAINT "mail_bodies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_body_id_mail_bodies_id_fk" FOREIGN KEY ("body_id") REFERENCES "public"."mail_bodies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_body_idx" ON "mail_outbox" USING btree ("body_id") WHERE "mail_outbox"."body_id" is not null;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_content_check" CHECK (("mail_outbox"."body_id" is null and "mail_outbox"."personal" is null and "mail_outbox"."html" is not null and "mail_outbox"."text" is not null)
          or ("mail_outbox"."body_id" is not null and "mail_outbox"."personal" is not null and "mail_outbox"."html" is null and "mail_outbox"."text" is null));