-- Signed-in calls read a session from the server's memory while nothing about it changed (server/domain/sessionCache.ts).
-- Whatever changes what a session may do announces it, whoever writes it (any server process, the admin command, a
-- hand-written statement): after commit, on the live-updates channel, naming the user whose sessions to forget (or
-- null: everyone's, for a company's MFA policy).
CREATE FUNCTION lc_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(
    'lc_live_updates',
    json_build_object(
      'type', 'credentials.changed',
      'userId', CASE WHEN TG_NARGS = 0 THEN NULL
        ELSE ((CASE TG_OP WHEN 'INSERT' THEN to_jsonb(NEW) ELSE to_jsonb(OLD) END) ->> TG_ARGV[0])::integer END
    )::text
  );
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_credentials_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION lc_credentials_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER mfa_tokens_credentials_changed AFTER UPDATE OR DELETE ON mfa_tokens
  FOR EACH ROW EXECUTE FUNCTION lc_credentials_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER users_credentials_changed AFTER UPDATE ON users
  FOR EACH ROW
  WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.role IS DISTINCT FROM NEW.role
    OR OLD.mfa_phone IS DISTINCT FROM NEW.mfa_phone OR OLD.external_id IS DISTINCT FROM NEW.external_id)
  EXECUTE FUNCTION lc_credentials_changed('id');
--> statement-breakpoint
CREATE TRIGGER users_deleted_credentials_changed AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION lc_credentials_changed('id');
--> statement-breakpoint
CREATE TRIGGER user_companies_credentials_changed AFTER INSERT OR UPDATE OR DELETE ON user_companies
  FOR EACH ROW EXECUTE FUNCTION lc_credentials_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER companies_credentials_changed AFTER UPDATE ON companies
  FOR EACH ROW
  WHEN (OLD.mfa_policy IS DISTINCT FROM NEW.mfa_policy)
  EXECUTE FUNCTION lc_credentials_changed();
