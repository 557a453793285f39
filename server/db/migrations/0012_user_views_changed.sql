-- What an employee's pages read on every load is kept in each server process's memory (server/domain/userViews.ts)
-- until something it is made of changes. Whatever changes it announces it, whoever writes it, after commit on the
-- live-updates channel: the user whose answers to forget, or null (everyone's) for what many users' pages show.
-- With no argument the notice is for everyone; with a column, for the user it names; with a column and a table, for
-- the user_id of that table's row whose id the column holds (a message's request, an answer's survey).
CREATE FUNCTION lc_views_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_row jsonb := CASE WHEN TG_LEVEL = 'ROW' THEN to_jsonb(CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END) END;
  changed_user integer;
BEGIN
  IF TG_NARGS = 1 THEN
    changed_user := (changed_row ->> TG_ARGV[0])::integer;
  ELSIF TG_NARGS = 2 THEN
    EXECUTE format('SELECT user_id FROM %I WHERE id = $1', TG_ARGV[1]) INTO changed_user USING (changed_row ->> TG_ARGV[0])::integer;
    -- The row's parent is gone with it (a cascade): nobody's page can still show it.
    IF changed_user IS NULL THEN RETURN NULL; END IF;
  END IF;
  PERFORM pg_notify('lc_live_updates', json_build_object('type', 'views.changed', 'userId', changed_user)::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_views_changed AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION lc_views_changed('id');
--> statement-breakpoint
CREATE TRIGGER requests_views_changed AFTER INSERT OR UPDATE OR DELETE ON requests
  FOR EACH ROW EXECUTE FUNCTION lc_views_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER messages_views_changed AFTER INSERT OR UPDATE OR DELETE ON messages
  FOR EACH ROW EXECUTE FUNCTION lc_views_changed('request_id', 'requests');
--> statement-breakpoint
CREATE TRIGGER user_request_surveys_views_changed AFTER INSERT OR UPDATE OR DELETE ON user_request_surveys
  FOR EACH ROW EXECUTE FUNCTION lc_views_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER user_request_answers_views_changed AFTER INSERT OR UPDATE OR DELETE ON user_request_answers
  FOR EACH ROW EXECUTE FUNCTION lc_views_changed('user_request_survey_id', 'user_request_surveys');
--> statement-breakpoint
CREATE TRIGGER onboarding_answers_views_changed AFTER INSERT OR UPDATE OR DELETE ON onboarding_answers
  FOR EACH ROW EXECUTE FUNCTION lc_views_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER companies_views_changed AFTER UPDATE OR DELETE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION lc_views_changed();
--> statement-breakpoint
CREATE TRIGGER survey_categories_views_changed AFTER UPDATE OR DELETE ON survey_categories
  FOR EACH STATEMENT EXECUTE FUNCTION lc_views_changed();
--> statement-breakpoint
CREATE TRIGGER request_surveys_views_changed AFTER UPDATE OR DELETE ON request_surveys
  FOR EACH STATEMENT EXECUTE FUNCTION lc_views_changed();
--> statement-breakpoint
CREATE TRIGGER survey_questions_views_changed AFTER INSERT OR UPDATE OR DELETE ON survey_questions
  FOR EACH STATEMENT EXECUTE FUNCTION lc_views_changed();
