CREATE TABLE "signup_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"password_hash" text NOT NULL,
	"name" text NOT NULL,
	"profile" jsonb NOT NULL,
	"created_account" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signup_credentials_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "mail_quota" (
	"scope" text NOT NULL,
	"subject_id" text NOT NULL,
	"day" date NOT NULL,
	"sent" integer NOT NULL,
	CONSTRAINT "mail_quota_scope_subject_id_day_pk" PRIMARY KEY("scope","subject_id","day"),
	CONSTRAINT "mail_quota_scope_check" CHECK ("mail_quota"."scope" in ('user', 'organization'))
);
--> statement-breakpoint
ALTER TABLE "signup_credentials" ADD CONSTRAINT "signup_credentials_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signup_credentials_user_id_idx" ON "signup_credentials" USING btree ("user_id");