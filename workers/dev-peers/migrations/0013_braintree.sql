-- Braintree GraphQL peer (src/braintree.ts): client tokens, payment methods (single-use nonces and
-- vaulted cards), transactions with their refunds, webhook notifications sent, and the peer's switches.
CREATE TABLE `braintree_client_tokens` (
	`fingerprint` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`merchant_account_id` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE TABLE `braintree_payment_methods` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	-- SINGLE_USE (a nonce from the client API) or MULTI_USE (vaulted).
	`usage` text NOT NULL,
	`customer_id` text,
	-- JSON: number (the full test card number; a peer only ever sees test cards), expMonth, expYear.
	`card` text NOT NULL,
	`consumed` integer NOT NULL DEFAULT 0,
	`created_at` integer NOT NULL
);
CREATE TABLE `braintree_transactions` (
	`legacy_id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`merchant_account_id` text NOT NULL,
	`order_id` text,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`payment_method_id` text,
	`payment_method_usage` text,
	`card` text NOT NULL,
	`processor_code` text,
	`processor_message` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE INDEX `braintree_transactions_order` ON `braintree_transactions` (`merchant_id`, `order_id`);
CREATE TABLE `braintree_refunds` (
	`legacy_id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`transaction_legacy_id` text NOT NULL,
	`order_id` text,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE TABLE `braintree_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`order_id` text,
	`transaction_legacy_id` text,
	`kind` text NOT NULL,
	`url` text,
	`body` text NOT NULL,
	`delivery_status` integer,
	`created_at` integer NOT NULL
);
CREATE TABLE `braintree_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
