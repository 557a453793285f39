CREATE TABLE "assignment_settings" (
	"id" smallint PRIMARY KEY NOT NULL,
	"default_open_request_cap" integer NOT NULL,
	"last_assigned_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assignment_settings_single_row" CHECK ("assignment_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "saved_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"short_code" text NOT NULL,
	"body_markdown" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_assignment" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"available" boolean DEFAULT false NOT NULL,
	"open_request_cap" integer,
	"availability_changed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assignment_settings" ADD CONSTRAINT "assignment_settings_last_assigned_user_id_users_id_fk" FOREIGN KEY ("last_assigned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_replies" ADD CONSTRAINT "saved_replies_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_assignment" ADD CONSTRAINT "staff_assignment_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_replies_short_code_idx" ON "saved_replies" USING btree ("short_code");