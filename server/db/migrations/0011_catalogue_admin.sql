CREATE TABLE "offering_companies" (
	"offering_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	CONSTRAINT "offering_companies_offering_id_company_id_pk" PRIMARY KEY("offering_id","company_id")
);
--> statement-breakpoint
ALTER TABLE "survey_questions" DROP CONSTRAINT "survey_questions_position_unique";--> statement-breakpoint
ALTER TABLE "offerings" DROP CONSTRAINT "offerings_benefit_has_company";--> statement-breakpoint
ALTER TABLE "offerings" DROP CONSTRAINT "offerings_company_id_companies_id_fk";
--> statement-breakpoint
DROP INDEX "offerings_company_idx";--> statement-breakpoint
ALTER TABLE "offering_categories" ADD COLUMN "image_upload_key" text;--> statement-breakpoint
ALTER TABLE "offerings" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "offerings" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "request_surveys" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "survey_categories" ADD COLUMN "image_upload_key" text;--> statement-breakpoint
ALTER TABLE "survey_questions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_request_surveys" ADD COLUMN "template_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "offering_companies" ADD CONSTRAINT "offering_companies_offering_id_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."offerings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offering_companies" ADD CONSTRAINT "offering_companies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offering_companies_company_idx" ON "offering_companies" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "offering_categories" ADD CONSTRAINT "offering_categories_image_upload_key_uploads_key_fk" FOREIGN KEY ("image_upload_key") REFERENCES "public"."uploads"("key") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_categories" ADD CONSTRAINT "survey_categories_image_upload_key_uploads_key_fk" FOREIGN KEY ("image_upload_key") REFERENCES "public"."uploads"("key") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A benefit may now be given to several companies: each keeps the company it had.
INSERT INTO "offering_companies" ("offering_id", "company_id") SELECT "id", "company_id" FROM "offerings" WHERE "company_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "offerings" DROP COLUMN "company_id";--> statement-breakpoint
ALTER TABLE "survey_questions" ADD CONSTRAINT "survey_questions_position_unique" UNIQUE("request_survey_id","version","position");--> statement-breakpoint
-- Whom a benefit is given to is part of the catalogue each server process keeps (migration 0009).
CREATE TRIGGER offering_companies_catalogue_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON offering_companies
  FOR EACH STATEMENT EXECUTE FUNCTION lc_offering_catalogue_changed();
