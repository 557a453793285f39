ALTER TABLE "internal_notes" ADD COLUMN "idempotency_key" uuid;--> statement-breakpoint
ALTER TABLE "internal_notes" ADD COLUMN "idempotency_fingerprint" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "idempotency_key" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "idempotency_fingerprint" text;--> statement-breakpoint
CREATE UNIQUE INDEX "internal_notes_idempotency_idx" ON "internal_notes" USING btree ("author_user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_idempotency_idx" ON "messages" USING btree ("author_user_id","idempotency_key");