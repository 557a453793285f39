CREATE TYPE "public"."offering_section_type" AS ENUM('numbered', 'key_value', 'text');--> statement-breakpoint
CREATE TYPE "public"."offering_type" AS ENUM('benefit', 'product');--> statement-breakpoint
CREATE TABLE "offering_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"image_url" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "offering_categories_external_id_unique" UNIQUE("external_id"),
	CONSTRAINT "offering_categories_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "offering_category_links" (
	"offering_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	CONSTRAINT "offering_category_links_offering_id_category_id_pk" PRIMARY KEY("offering_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "offering_section_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"section_id" integer NOT NULL,
	"value" text NOT NULL,
	"key" text,
	"external_url" text,
	"position" integer NOT NULL,
	CONSTRAINT "offering_section_items_position_unique" UNIQUE("section_id","position")
);
--> statement-breakpoint
CREATE TABLE "offering_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"offering_id" integer NOT NULL,
	"section_type" "offering_section_type" NOT NULL,
	"heading" text NOT NULL,
	"cta_text" text,
	"cta_url" text,
	"position" integer NOT NULL,
	CONSTRAINT "offering_sections_position_unique" UNIQUE("offering_id","position"),
	CONSTRAINT "offering_sections_cta_complete" CHECK (("offering_sections"."cta_text" is null) = ("offering_sections"."cta_url" is null))
);
--> statement-breakpoint
CREATE TABLE "offerings" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"type" "offering_type" NOT NULL,
	"company_id" integer,
	"provider_name" text NOT NULL,
	"provider_logo_url" text NOT NULL,
	"heading" text NOT NULL,
	"subheading" text NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"name" text NOT NULL,
	"request_survey_cta" text,
	"request_survey_id" integer,
	"request_survey_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offerings_slug_unique" UNIQUE("slug"),
	CONSTRAINT "offerings_benefit_has_company" CHECK (("offerings"."type" = 'benefit') = ("offerings"."company_id" is not null)),
	CONSTRAINT "offerings_help_survey_complete" CHECK (("offerings"."request_survey_cta" is null) = ("offerings"."request_survey_id" is null) and ("offerings"."request_survey_id" is null) = ("offerings"."request_survey_name" is null))
);
--> statement-breakpoint
ALTER TABLE "offering_category_links" ADD CONSTRAINT "offering_category_links_offering_id_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."offerings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offering_category_links" ADD CONSTRAINT "offering_category_links_category_id_offering_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."offering_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offering_section_items" ADD CONSTRAINT "offering_section_items_section_id_offering_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."offering_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offering_sections" ADD CONSTRAINT "offering_sections_offering_id_offerings_id_fk" FOREIGN KEY ("offering_id") REFERENCES "public"."offerings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offerings" ADD CONSTRAINT "offerings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offering_category_links_category_idx" ON "offering_category_links" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "offerings_company_idx" ON "offerings" USING btree ("company_id");