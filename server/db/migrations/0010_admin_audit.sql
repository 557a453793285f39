CREATE TABLE "audit_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "logo_upload_key" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "internal_staff" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("subject_type","subject_id");--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_logo_upload_key_uploads_key_fk" FOREIGN KEY ("logo_upload_key") REFERENCES "public"."uploads"("key") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The staff companies of SPEC §1 (INTERNAL_COMPANY_NAMES' default) are the internal ones an admin now sees flagged.
UPDATE "companies" SET "internal_staff" = true WHERE "name" IN ('Life Concierge', 'Life Concierge Staff');
--> statement-breakpoint
-- A session ends with its account's deactivation, and a company's deactivation changes whom it sponsors: both are
-- announced to the session caches (server/domain/sessionCache.ts), as migration 0008 does for the other changes.
DROP TRIGGER users_credentials_changed ON users;
--> statement-breakpoint
CREATE TRIGGER users_credentials_changed AFTER UPDATE ON users
  FOR EACH ROW
  WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.role IS DISTINCT FROM NEW.role
    OR OLD.mfa_phone IS DISTINCT FROM NEW.mfa_phone OR OLD.external_id IS DISTINCT FROM NEW.external_id
    OR OLD.email_confirmed_at IS DISTINCT FROM NEW.email_confirmed_at OR OLD.deactivated_at IS DISTINCT FROM NEW.deactivated_at)
  EXECUTE FUNCTION lc_credentials_changed('id');
--> statement-breakpoint
DROP TRIGGER companies_credentials_changed ON companies;
--> statement-breakpoint
CREATE TRIGGER companies_credentials_changed AFTER UPDATE ON companies
  FOR EACH ROW
  WHEN (OLD.mfa_policy IS DISTINCT FROM NEW.mfa_policy OR OLD.deactivated_at IS DISTINCT FROM NEW.deactivated_at)
  EXECUTE FUNCTION lc_credentials_changed();
