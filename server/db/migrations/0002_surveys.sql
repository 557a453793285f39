CREATE TYPE "public"."question_prefill" AS ENUM('full_name', 'phone', 'email', 'address');--> statement-breakpoint
CREATE TYPE "public"."question_type" AS ENUM('TextInput', 'MultilineTextInput', 'PhoneNumberInput', 'ManagedEmailInput', 'SingleSelectInput', 'SingleUploadInput');--> statement-breakpoint
CREATE TABLE "onboarding_answers" (
	"user_id" integer NOT NULL,
	"answer_id" integer NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "onboarding_answers_user_id_answer_id_pk" PRIMARY KEY("user_id","answer_id")
);
--> statement-breakpoint
CREATE TABLE "request_surveys" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"category_id" integer,
	"for_alpha" boolean DEFAULT true NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_surveys_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "survey_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"image_url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_categories_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "survey_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_survey_id" integer NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"type" "question_type" NOT NULL,
	"optional" boolean DEFAULT false NOT NULL,
	"prefill" "question_prefill",
	"select_options" jsonb,
	CONSTRAINT "survey_questions_position_unique" UNIQUE("request_survey_id","position")
);
--> statement-breakpoint
CREATE TABLE "user_request_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_request_survey_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_request_answers_question_unique" UNIQUE("user_request_survey_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "user_request_surveys" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"request_survey_id" integer NOT NULL,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "survey_category_id" integer;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "user_request_survey_id" integer;--> statement-breakpoint
ALTER TABLE "onboarding_answers" ADD CONSTRAINT "onboarding_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_surveys" ADD CONSTRAINT "request_surveys_category_id_survey_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."survey_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_questions" ADD CONSTRAINT "survey_questions_request_survey_id_request_surveys_id_fk" FOREIGN KEY ("request_survey_id") REFERENCES "public"."request_surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_request_answers" ADD CONSTRAINT "user_request_answers_user_request_survey_id_user_request_surveys_id_fk" FOREIGN KEY ("user_request_survey_id") REFERENCES "public"."user_request_surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_request_answers" ADD CONSTRAINT "user_request_answers_question_id_survey_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."survey_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_request_surveys" ADD CONSTRAINT "user_request_surveys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_request_surveys" ADD CONSTRAINT "user_request_surveys_request_survey_id_request_surveys_id_fk" FOREIGN KEY ("request_survey_id") REFERENCES "public"."request_surveys"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_surveys_category_idx" ON "request_surveys" USING btree ("category_id","position");--> statement-breakpoint
CREATE INDEX "user_request_surveys_user_idx" ON "user_request_surveys" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_survey_category_id_survey_categories_id_fk" FOREIGN KEY ("survey_category_id") REFERENCES "public"."survey_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_user_request_survey_id_user_request_surveys_id_fk" FOREIGN KEY ("user_request_survey_id") REFERENCES "public"."user_request_surveys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_user_request_survey_id_unique" UNIQUE("user_request_survey_id");