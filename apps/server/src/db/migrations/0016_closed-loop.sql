CREATE TABLE "follow_up_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"question_id" uuid NOT NULL,
	"health_check_id" uuid NOT NULL,
	"participant_id" uuid NOT NULL,
	"answer" text NOT NULL,
	"comment" text,
	"anonymous" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follow_up_answers_answer_check" CHECK ("follow_up_answers"."answer" in ('yes', 'partly', 'no', 'too-early'))
);
--> statement-breakpoint
CREATE TABLE "follow_up_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"health_check_id" uuid NOT NULL,
	"action_item_id" uuid NOT NULL,
	"component_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "action_items" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "follow_up_answers" ADD CONSTRAINT "follow_up_answers_question_id_follow_up_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."follow_up_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_answers" ADD CONSTRAINT "follow_up_answers_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "public"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_answers" ADD CONSTRAINT "follow_up_answers_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_questions" ADD CONSTRAINT "follow_up_questions_health_check_id_health_checks_id_fk" FOREIGN KEY ("health_check_id") REFERENCES "public"."health_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_questions" ADD CONSTRAINT "follow_up_questions_action_item_id_action_items_id_fk" FOREIGN KEY ("action_item_id") REFERENCES "public"."action_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_questions" ADD CONSTRAINT "follow_up_questions_component_id_health_check_components_id_fk" FOREIGN KEY ("component_id") REFERENCES "public"."health_check_components"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_answers_participant_question_key" ON "follow_up_answers" USING btree ("participant_id","question_id");--> statement-breakpoint
CREATE INDEX "follow_up_answers_question_idx" ON "follow_up_answers" USING btree ("question_id","answer");--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_questions_action_item_key" ON "follow_up_questions" USING btree ("action_item_id");--> statement-breakpoint
CREATE INDEX "follow_up_questions_check_idx" ON "follow_up_questions" USING btree ("health_check_id","component_id");--> statement-breakpoint
CREATE INDEX "action_items_done_idx" ON "action_items" USING btree ("status","completed_at");