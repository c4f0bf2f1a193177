CREATE TABLE "loop_answers" (
	"response_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"score" smallint,
	"text" text,
	CONSTRAINT "loop_answers_response_id_question_id_pk" PRIMARY KEY("response_id","question_id"),
	CONSTRAINT "loop_answers_value_check" CHECK (("loop_answers"."score" is null) <> ("loop_answers"."text" is null))
);
--> statement-breakpoint
CREATE TABLE "loop_audience" (
	"loop_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	CONSTRAINT "loop_audience_loop_id_member_id_pk" PRIMARY KEY("loop_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "loop_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loop_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"low_label" text,
	"high_label" text,
	"position" integer NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "loop_questions_kind_check" CHECK ("loop_questions"."kind" in ('scale', 'enps', 'text'))
);
--> statement-breakpoint
CREATE TABLE "loop_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round_id" uuid NOT NULL,
	"anonymous" boolean NOT NULL,
	"member_id" uuid,
	"continuation_hash" text,
	CONSTRAINT "loop_responses_anonymous_check" CHECK (not "loop_responses"."anonymous" or "loop_responses"."member_id" is null)
);
--> statement-breakpoint
CREATE TABLE "loop_round_counts" (
	"round_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"value" smallint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "loop_round_counts_round_id_question_id_value_pk" PRIMARY KEY("round_id","question_id","value")
);
--> statement-breakpoint
CREATE TABLE "loop_round_ledger" (
	"round_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	CONSTRAINT "loop_round_ledger_round_id_member_id_pk" PRIMARY KEY("round_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "loop_round_recipients" (
	"round_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	CONSTRAINT "loop_round_recipients_round_id_member_id_pk" PRIMARY KEY("round_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "loop_rounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loop_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"audience" integer NOT NULL,
	"answered" integer,
	"anonymous" boolean NOT NULL,
	"min_responses" integer NOT NULL,
	"question_ids" uuid[] NOT NULL,
	"audience_ids" uuid[],
	"invited" integer DEFAULT 0 NOT NULL,
	"reminded_at" timestamp with time zone,
	CONSTRAINT "loop_rounds_id_anonymous_key" UNIQUE("id","anonymous"),
	CONSTRAINT "loop_rounds_status_check" CHECK ("loop_rounds"."status" in ('open', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "loops" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"audience_kind" text NOT NULL,
	"cadence" text NOT NULL,
	"weekday" text NOT NULL,
	"time" text NOT NULL,
	"time_zone" text NOT NULL,
	"anchor_date" date NOT NULL,
	"round_days" integer NOT NULL,
	"anonymous" boolean NOT NULL,
	"min_responses" integer NOT NULL,
	"reminder" boolean NOT NULL,
	"next_round_at" timestamp with time zone,
	"template_id" uuid,
	"created_by" text,
	"launch_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "loops_status_check" CHECK ("loops"."status" in ('active', 'paused', 'completed')),
	CONSTRAINT "loops_audience_kind_check" CHECK ("loops"."audience_kind" in ('all', 'members')),
	CONSTRAINT "loops_cadence_check" CHECK ("loops"."cadence" in ('weekly', 'biweekly', 'monthly')),
	CONSTRAINT "loops_weekday_check" CHECK ("loops"."weekday" in ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday')),
	CONSTRAINT "loops_min_responses_check" CHECK ("loops"."min_responses" >= 1 and (not "loops"."anonymous" or "loops"."min_responses" >= 3))
);
--> statement-breakpoint
ALTER TABLE "loop_answers" ADD CONSTRAINT "loop_answers_response_id_loop_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."loop_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_answers" ADD CONSTRAINT "loop_answers_question_id_loop_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."loop_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_audience" ADD CONSTRAINT "loop_audience_loop_id_loops_id_fk" FOREIGN KEY ("loop_id") REFERENCES "public"."loops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_audience" ADD CONSTRAINT "loop_audience_member_id_workspace_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."workspace_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_questions" ADD CONSTRAINT "loop_questions_loop_id_loops_id_fk" FOREIGN KEY ("loop_id") REFERENCES "public"."loops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_responses" ADD CONSTRAINT "loop_responses_member_id_workspace_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."workspace_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_responses" ADD CONSTRAINT "loop_responses_round_fk" FOREIGN KEY ("round_id","anonymous") REFERENCES "public"."loop_rounds"("id","anonymous") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_round_counts" ADD CONSTRAINT "loop_round_counts_round_id_loop_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."loop_rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_round_counts" ADD CONSTRAINT "loop_round_counts_question_id_loop_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."loop_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_round_ledger" ADD CONSTRAINT "loop_round_ledger_round_id_loop_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."loop_rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_round_ledger" ADD CONSTRAINT "loop_round_ledger_member_id_workspace_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."workspace_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_round_recipients" ADD CONSTRAINT "loop_round_recipients_round_id_loop_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."loop_rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_round_recipients" ADD CONSTRAINT "loop_round_recipients_member_id_workspace_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."workspace_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_rounds" ADD CONSTRAINT "loop_rounds_loop_id_loops_id_fk" FOREIGN KEY ("loop_id") REFERENCES "public"."loops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loops" ADD CONSTRAINT "loops_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loops" ADD CONSTRAINT "loops_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loops" ADD CONSTRAINT "loops_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loop_audience_member_idx" ON "loop_audience" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "loop_questions_loop_idx" ON "loop_questions" USING btree ("loop_id","position");--> statement-breakpoint
CREATE INDEX "loop_responses_round_idx" ON "loop_responses" USING btree ("round_id");--> statement-breakpoint
CREATE UNIQUE INDEX "loop_responses_continuation_key" ON "loop_responses" USING btree ("continuation_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "loop_round_recipients_token_key" ON "loop_round_recipients" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "loop_round_recipients_member_idx" ON "loop_round_recipients" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "loop_rounds_loop_number_key" ON "loop_rounds" USING btree ("loop_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "loop_rounds_one_open_key" ON "loop_rounds" USING btree ("loop_id") WHERE "loop_rounds"."status" = 'open';--> statement-breakpoint
CREATE INDEX "loops_workspace_created_idx" ON "loops" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "loops_launch_key" ON "loops" USING btree ("created_by","launch_key");