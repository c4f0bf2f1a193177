CREATE TABLE "loop_follow_up_answers" (
	"response_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"answer" text NOT NULL,
	CONSTRAINT "loop_follow_up_answers_response_id_question_id_pk" PRIMARY KEY("response_id","question_id"),
	CONSTRAINT "loop_follow_up_answers_answer_check" CHECK ("loop_follow_up_answers"."answer" in ('yes', 'partly', 'no', 'too-early'))
);
--> statement-breakpoint
ALTER TABLE "follow_up_questions" ALTER COLUMN "health_check_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "follow_up_questions" ALTER COLUMN "component_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "follow_up_questions" ADD COLUMN "loop_round_id" uuid;--> statement-breakpoint
ALTER TABLE "loops" ADD COLUMN "follow_up_actions" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "loop_follow_up_answers" ADD CONSTRAINT "loop_follow_up_answers_response_id_loop_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."loop_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loop_follow_up_answers" ADD CONSTRAINT "loop_follow_up_answers_question_id_follow_up_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."follow_up_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loop_follow_up_answers_question_idx" ON "loop_follow_up_answers" USING btree ("question_id","answer");--> statement-breakpoint
ALTER TABLE "follow_up_questions" ADD CONSTRAINT "follow_up_questions_loop_round_id_loop_rounds_id_fk" FOREIGN KEY ("loop_round_id") REFERENCES "public"."loop_rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "follow_up_questions_round_idx" ON "follow_up_questions" USING btree ("loop_round_id") WHERE "follow_up_questions"."loop_round_id" is not null;--> statement-breakpoint
ALTER TABLE "follow_up_questions" ADD CONSTRAINT "follow_up_questions_asker_check" CHECK (("follow_up_questions"."health_check_id" is null) <> ("follow_up_questions"."loop_round_id" is null) and ("follow_up_questions"."health_check_id" is null or "follow_up_questions"."component_id" is not null));