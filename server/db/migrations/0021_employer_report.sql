ALTER TYPE "public"."user_role" ADD VALUE 'employer_admin';--> statement-breakpoint
CREATE TABLE "employer_admins" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "employer_report_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"suppression_threshold" integer DEFAULT 10 NOT NULL,
	"eligible_employees" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employer_report_settings_threshold_floor" CHECK ("employer_report_settings"."suppression_threshold" >= 5),
	CONSTRAINT "employer_report_settings_eligible_positive" CHECK ("employer_report_settings"."eligible_employees" is null or "employer_report_settings"."eligible_employees" >= 0)
);
--> statement-breakpoint
CREATE TABLE "employer_summary_mails" (
	"user_id" integer NOT NULL,
	"month" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employer_summary_mails_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
CREATE TABLE "hours_saved_estimates" (
	"survey_category_id" integer PRIMARY KEY NOT NULL,
	"minutes_per_request" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hours_saved_estimates_minutes_range" CHECK ("hours_saved_estimates"."minutes_per_request" between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "employer_admins" ADD CONSTRAINT "employer_admins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_admins" ADD CONSTRAINT "employer_admins_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_report_settings" ADD CONSTRAINT "employer_report_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employer_summary_mails" ADD CONSTRAINT "employer_summary_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hours_saved_estimates" ADD CONSTRAINT "hours_saved_estimates_survey_category_id_survey_categories_id_fk" FOREIGN KEY ("survey_category_id") REFERENCES "public"."survey_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "employer_admins_company_idx" ON "employer_admins" USING btree ("company_id");