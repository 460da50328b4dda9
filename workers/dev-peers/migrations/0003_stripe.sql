-- Stripe peer (src/stripe.ts): webhook endpoints, Checkout Sessions and subscriptions it created.
CREATE TABLE `stripe_webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`secret` text NOT NULL,
	`enabled_events` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE TABLE `stripe_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	-- The Checkout Session object as the API shows it (JSON).
	`object` text NOT NULL,
	`idempotency_key` text,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `stripe_sessions_idempotency_unique` ON `stripe_sessions` (`idempotency_key`);
CREATE TABLE `stripe_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`object` text NOT NULL,
	`created_at` integer NOT NULL
);
