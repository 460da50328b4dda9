-- PayPal REST peer (src/paypal.ts): OAuth tokens, Orders v2 with their captures and refunds,
-- webhooks and the events sent to them, Vault v3 setup and payment tokens, injected faults.
CREATE TABLE `paypal_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
CREATE TABLE `paypal_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	-- PayPal-Request-Id of the create call: the same id again answers this order.
	`request_id` text,
	`status` text NOT NULL,
	`currency` text NOT NULL,
	`value` text NOT NULL,
	`custom_id` text,
	`invoice_id` text,
	`description` text,
	-- payment_source.paypal.experience_context (JSON) or null.
	`experience` text,
	-- 1: attributes.vault.store_in_vault = ON_SUCCESS was asked.
	`store_in_vault` integer NOT NULL DEFAULT 0,
	-- A merchant-initiated order paid with this vault id.
	`vault_source` text,
	`payer_email` text,
	`payer_id` text,
	-- The vault id created when the order was captured with store_in_vault.
	`vault_id` text,
	`capture_request_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE UNIQUE INDEX `paypal_orders_request_unique` ON `paypal_orders` (`client_id`, `request_id`);
CREATE TABLE `paypal_captures` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`client_id` text NOT NULL,
	`status` text NOT NULL,
	`currency` text NOT NULL,
	-- Minor units (the API shows decimal strings).
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE TABLE `paypal_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`capture_id` text NOT NULL,
	`client_id` text NOT NULL,
	`request_id` text,
	`status` text NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `paypal_refunds_request_unique` ON `paypal_refunds` (`client_id`, `request_id`);
CREATE TABLE `paypal_webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`url` text NOT NULL,
	-- JSON array of event type names ('*' = all).
	`event_types` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `paypal_webhooks_url_unique` ON `paypal_webhooks` (`client_id`, `url`);
CREATE TABLE `paypal_events` (
	`id` text PRIMARY KEY NOT NULL,
	`webhook_id` text NOT NULL,
	`order_id` text,
	`url` text NOT NULL,
	-- The headers and body exactly as POSTed (JSON / text).
	`headers` text NOT NULL,
	`body` text NOT NULL,
	`delivery_status` integer NOT NULL,
	`created_at` integer NOT NULL,
	`seq` integer NOT NULL
);
CREATE INDEX `paypal_events_order_idx` ON `paypal_events` (`order_id`, `seq`);
CREATE TABLE `paypal_vault` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`payer_email` text NOT NULL,
	-- The setup token it was made from (one payment token per setup token).
	`setup_token` text UNIQUE,
	`created_at` integer NOT NULL
);
CREATE TABLE `paypal_setup_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`status` text NOT NULL,
	`experience` text NOT NULL,
	`payer_email` text,
	`created_at` integer NOT NULL
);
CREATE TABLE `paypal_faults` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`status` integer NOT NULL,
	-- Answers left; -1 = until cleared.
	`remaining` integer NOT NULL
);
