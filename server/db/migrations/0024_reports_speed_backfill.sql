-- The reports' copy of each completion (0023): the employee and survey category of completed requests, the score of
-- each completion's rating, and no completion for the requests reopened since.
UPDATE "request_service_levels" SET
  "employee_user_id" = "requests"."user_id",
  "survey_category_id" = "requests"."survey_category_id",
  "completed_at" = CASE WHEN "requests"."status" = 'closed' THEN "request_service_levels"."completed_at" END
FROM "requests" WHERE "requests"."id" = "request_service_levels"."request_id" AND "request_service_levels"."completed_at" IS NOT NULL;--> statement-breakpoint
UPDATE "request_service_levels" SET "rating_score" = "request_ratings"."score"
FROM "request_ratings"
WHERE "request_ratings"."request_id" = "request_service_levels"."request_id"
  AND "request_ratings"."completed_at" = "request_service_levels"."completed_at";
