CREATE TABLE "request_queue_sizes" (
	"status" "request_status" NOT NULL,
	"assignee_user_id" integer NOT NULL,
	"size" integer NOT NULL,
	CONSTRAINT "request_queue_sizes_status_assignee_user_id_pk" PRIMARY KEY("status","assignee_user_id")
);
--> statement-breakpoint
CREATE INDEX "requests_name_trgm_idx" ON "requests" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_full_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);