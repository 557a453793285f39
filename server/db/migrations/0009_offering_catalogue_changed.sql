-- Each server process keeps the offerings catalogue in memory (createOfferingsCache, server/domain/offerings.ts); any change to it is
-- announced after commit on the live-updates channel, once per statement.
CREATE FUNCTION lc_offering_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('lc_live_updates', json_build_object('type', 'catalogue.changed')::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER offerings_catalogue_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON offerings
  FOR EACH STATEMENT EXECUTE FUNCTION lc_offering_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER offering_categories_catalogue_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON offering_categories
  FOR EACH STATEMENT EXECUTE FUNCTION lc_offering_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER offering_category_links_catalogue_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON offering_category_links
  FOR EACH STATEMENT EXECUTE FUNCTION lc_offering_catalogue_changed();
--> statement-breakpoint
-- A session also carries the companies that sponsor its user, granted once the address is confirmed.
DROP TRIGGER users_credentials_changed ON users;
--> statement-breakpoint
CREATE TRIGGER users_credentials_changed AFTER UPDATE ON users
  FOR EACH ROW
  WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.role IS DISTINCT FROM NEW.role
    OR OLD.mfa_phone IS DISTINCT FROM NEW.mfa_phone OR OLD.external_id IS DISTINCT FROM NEW.external_id
    OR OLD.email_confirmed_at IS DISTINCT FROM NEW.email_confirmed_at)
  EXECUTE FUNCTION lc_credentials_changed('id');
