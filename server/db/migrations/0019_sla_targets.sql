CREATE TABLE "request_sla_clocks" (
	"request_id" integer PRIMARY KEY NOT NULL,
	"policy_id" integer,
	"calendar" jsonb NOT NULL,
	"first_response_minutes" integer NOT NULL,
	"resolution_minutes" integer NOT NULL,
	"first_response_due_at" timestamp with time zone NOT NULL,
	"first_response_at_risk_at" timestamp with time zone NOT NULL,
	"resolution_started_at" timestamp with time zone NOT NULL,
	"resolution_due_at" timestamp with time zone NOT NULL,
	"resolution_at_risk_at" timestamp with time zone NOT NULL,
	"paused_at" timestamp with time zone,
	"first_response_at_risk_alerted_at" timestamp with time zone,
	"first_response_breach_alerted_at" timestamp with time zone,
	"resolution_at_risk_alerted_at" timestamp with time zone,
	"resolution_breach_alerted_at" timestamp with time zone,
	"next_alert_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"first_response_minutes" integer NOT NULL,
	"resolution_minutes" integer NOT NULL,
	"time_zone" text NOT NULL,
	"week" jsonb NOT NULL,
	"holidays" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_policies_targets_positive" CHECK ("service_policies"."first_response_minutes" > 0 AND "service_policies"."resolution_minutes" > 0)
);
--> statement-breakpoint
ALTER TABLE "request_sla_clocks" ADD CONSTRAINT "request_sla_clocks_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_sla_clocks" ADD CONSTRAINT "request_sla_clocks_policy_id_service_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."service_policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_policies" ADD CONSTRAINT "service_policies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_sla_clocks_next_alert_idx" ON "request_sla_clocks" USING btree ("next_alert_at") WHERE "request_sla_clocks"."next_alert_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "service_policies_company_idx" ON "service_policies" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_policies_default_idx" ON "service_policies" USING btree (("company_id" IS NULL)) WHERE "service_policies"."company_id" IS NULL;