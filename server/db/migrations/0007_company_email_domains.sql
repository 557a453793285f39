ALTER TYPE "public"."one_time_token_purpose" ADD VALUE 'email_confirmation';--> statement-breakpoint
CREATE TABLE "company_email_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "company_email_domains" ADD CONSTRAINT "company_email_domains_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;