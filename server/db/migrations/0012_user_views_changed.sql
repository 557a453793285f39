-- What an employee's pages read on every load is kept in each server process's memory (server/domain/userViews.ts)
-- until something it is made of changes. Whatever changes it announces it, whoever writes it, after commit on the
-- live-updates channel: the user whose answers to forget, or null (everyone's) for what many users' pages show.
-- With no argument the notice is for everyone; with a column, for the user it names; with a column and 'requests' or
-- 'user_request_surveys', for the user of that row whose id the column holds (a message's request, an answer's
-- survey). A new message is not announced here: the app that writes it announces it (message.created) for the live
-- streams after its commit, and the cache hears that too. A NOTIFY in a transaction makes its commit wait for the
-- notification queue's lock: the busiest writes (a message, and the touch of its request) send none.
CREATE FUNCTION lc_views_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_row jsonb := CASE WHEN TG_LEVEL = 'ROW' THEN to_jsonb(CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END) END;
  changed_user integer;
BEGIN
  IF TG_NARGS >= 1 THEN
    changed_user := (changed_row ->> TG_ARGV[0])::integer;
  END IF;
  IF TG_NARGS = 2 THEN
    changed_user := CASE TG_ARGV[1]
      WHEN 'requests' THEN (SELECT user_id FROM requests WHERE id = changed_user)
      WHEN 'user_request_surveys' THEN (SELECT user_id FROM user_request_surveys WHERE id = changed_user)
    END;
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
CREATE TRIGGER requests_views_changed AFTER INSERT OR DELETE ON requests
  FOR EACH ROW EXECUTE FUNCTION lc_views_changed('user_id');
--> statement-breakpoint
-- Only a change the employee's pages show (every message touches updated_at, and its own notice says so).
CREATE TRIGGER requests_updated_views_changed AFTER UPDATE ON requests
  FOR EACH ROW
  WHEN ((OLD.user_id, OLD.external_id, OLD.name, OLD.status, OLD.details, OLD.survey_category_id, OLD.issued_at, OLD.created_at)
    IS DISTINCT FROM (NEW.user_id, NEW.external_id, NEW.name, NEW.status, NEW.details, NEW.survey_category_id, NEW.issued_at, NEW.created_at))
  EXECUTE FUNCTION lc_views_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER messages_views_changed AFTER UPDATE OR DELETE ON messages
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
