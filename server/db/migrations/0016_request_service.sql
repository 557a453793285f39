CREATE TABLE "request_ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"user_id" integer NOT NULL,
	"concierge_user_id" integer,
	"score" smallint NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_ratings_score_range" CHECK ("request_ratings"."score" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "request_service_levels" (
	"request_id" integer PRIMARY KEY NOT NULL,
	"first_response_due_at" timestamp with time zone,
	"resolution_due_at" timestamp with time zone,
	"first_responded_at" timestamp with time zone,
	"first_response_business_minutes" integer,
	"resolution_business_minutes" integer,
	"first_response_met" boolean,
	"resolution_met" boolean,
	"completed_by_user_id" integer,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_ratings" ADD CONSTRAINT "request_ratings_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_ratings" ADD CONSTRAINT "request_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_ratings" ADD CONSTRAINT "request_ratings_concierge_user_id_users_id_fk" FOREIGN KEY ("concierge_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_service_levels" ADD CONSTRAINT "request_service_levels_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_service_levels" ADD CONSTRAINT "request_service_levels_completed_by_user_id_users_id_fk" FOREIGN KEY ("completed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "request_ratings_completion_idx" ON "request_ratings" USING btree ("request_id","completed_at");--> statement-breakpoint
CREATE INDEX "request_ratings_created_idx" ON "request_ratings" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "request_service_levels_first_response_due_idx" ON "request_service_levels" USING btree ("first_response_due_at");--> statement-breakpoint
CREATE INDEX "request_service_levels_resolution_due_idx" ON "request_service_levels" USING btree ("resolution_due_at");--> statement-breakpoint
CREATE INDEX "request_service_levels_completed_idx" ON "request_service_levels" USING btree ("completed_at");