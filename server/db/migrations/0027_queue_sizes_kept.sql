-- The console's queue counts (0026's request_queue_sizes), kept by the database itself as requests are filed, change
-- status or assignee, and are deleted (also by a cascade): in the same transaction, so a count is never ahead of or
-- behind the requests it counts. An update first takes the row it leaves or enters that sorts first, so that two
-- transactions moving requests between the same two counts take their locks in one order.
CREATE FUNCTION request_queue_sizes_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  left_status request_status;
  left_assignee integer;
  entered_status request_status;
  entered_assignee integer;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    left_status := OLD.status;
    left_assignee := coalesce(OLD.assignee_user_id, 0);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    entered_status := NEW.status;
    entered_assignee := coalesce(NEW.assignee_user_id, 0);
  END IF;
  IF TG_OP = 'UPDATE' AND (entered_status, entered_assignee) < (left_status, left_assignee) THEN
    INSERT INTO request_queue_sizes (status, assignee_user_id, size) VALUES (entered_status, entered_assignee, 1)
      ON CONFLICT (status, assignee_user_id) DO UPDATE SET size = request_queue_sizes.size + 1;
    entered_status := NULL;
  END IF;
  IF left_status IS NOT NULL THEN
    UPDATE request_queue_sizes SET size = size - 1 WHERE status = left_status AND assignee_user_id = left_assignee;
  END IF;
  IF entered_status IS NOT NULL THEN
    INSERT INTO request_queue_sizes (status, assignee_user_id, size) VALUES (entered_status, entered_assignee, 1)
      ON CONFLICT (status, assignee_user_id) DO UPDATE SET size = request_queue_sizes.size + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER requests_queue_sizes_on_insert_or_delete AFTER INSERT OR DELETE ON requests
  FOR EACH ROW EXECUTE FUNCTION request_queue_sizes_keep();
--> statement-breakpoint
CREATE TRIGGER requests_queue_sizes_on_move AFTER UPDATE OF status, assignee_user_id ON requests
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.assignee_user_id IS DISTINCT FROM NEW.assignee_user_id)
  EXECUTE FUNCTION request_queue_sizes_keep();
--> statement-breakpoint
CREATE FUNCTION request_queue_sizes_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM request_queue_sizes;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER requests_queue_sizes_on_truncate AFTER TRUNCATE ON requests
  FOR EACH STATEMENT EXECUTE FUNCTION request_queue_sizes_forget();
--> statement-breakpoint
INSERT INTO request_queue_sizes (status, assignee_user_id, size)
  SELECT status, coalesce(assignee_user_id, 0), count(*) FROM requests GROUP BY 1, 2;
