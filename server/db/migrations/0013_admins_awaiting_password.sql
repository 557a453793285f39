ALTER TABLE "users" ADD COLUMN "awaiting_password" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Invitations already sent: staff accounts whose owner never chose a password (the invitation's link is a
-- password_reset token, and choosing a password sets password_changed_at) and never signed in. Counting one of them
-- as unable to sign in only keeps another admin from being demoted, never the other way round.
UPDATE "users" SET "awaiting_password" = true
WHERE "role" IN ('concierge', 'admin') AND "password_changed_at" IS NULL
  AND NOT EXISTS (SELECT 1 FROM "familiar_clients" WHERE "familiar_clients"."user_id" = "users"."id")
  AND EXISTS (SELECT 1 FROM "one_time_tokens" WHERE "one_time_tokens"."user_id" = "users"."id" AND "one_time_tokens"."purpose" = 'password_reset');
