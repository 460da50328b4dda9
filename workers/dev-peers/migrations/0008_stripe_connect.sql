-- Stripe peer (src/stripe.ts): Stripe Connect. Webhook endpoints that listen to connected accounts
-- (`connect=true`), and the objects of the money flow, each as the API shows it (JSON):
-- account, account_link (with the peer's own state), payment_intent, charge, transfer,
-- transfer_reversal, application_fee, refund. `parent` is what the API lists them by (an
-- application fee's charge, a transfer's destination account, an account link's account).
ALTER TABLE `stripe_webhook_endpoints` ADD COLUMN `connect` integer NOT NULL DEFAULT 0;
CREATE TABLE `stripe_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`object` text NOT NULL,
	`parent` text,
	`idempotency_key` text,
	`created_at` integer NOT NULL
);
CREATE INDEX `stripe_objects_type_parent` ON `stripe_objects` (`type`, `parent`);
CREATE UNIQUE INDEX `stripe_objects_idempotency_unique` ON `stripe_objects` (`type`, `idempotency_key`);
