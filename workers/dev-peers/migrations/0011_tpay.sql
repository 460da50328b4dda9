-- Tpay OpenAPI peer (src/tpay.ts): OAuth tokens, transactions (with the card kept for renewals),
-- refunds, card tokenizations without a charge, the notifications sent, and the "down" fault.
CREATE TABLE `tpay_access_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
CREATE TABLE `tpay_transactions` (
	`transaction_id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`merchant_id` text NOT NULL,
	-- pending | paid | correct | refund
	`status` text NOT NULL,
	-- grosze
	`amount` integer NOT NULL,
	`refunded` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`description` text NOT NULL,
	`hidden_description` text NOT NULL,
	-- The create request (JSON): payer, callbacks, lang, pay.
	`body` text NOT NULL,
	-- The API base the transaction was created through: x5u points under it.
	`api_base` text NOT NULL,
	-- payments.status: pending | correct | declined
	`payment_status` text NOT NULL,
	`payment_method` text,
	`decline_code` text,
	`decline_message` text,
	`card_save` integer DEFAULT 0 NOT NULL,
	`card_token` text,
	`created_at` integer NOT NULL,
	`paid_at` integer
);
CREATE UNIQUE INDEX `tpay_transactions_title_unique` ON `tpay_transactions` (`title`);
CREATE INDEX `tpay_transactions_hidden` ON `tpay_transactions` (`merchant_id`, `hidden_description`);
CREATE TABLE `tpay_card_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	`card_brand` text NOT NULL,
	`card_tail` text NOT NULL,
	-- MMYY
	`expiry` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE TABLE `tpay_refunds` (
	`request_id` text PRIMARY KEY NOT NULL,
	`transaction_id` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE TABLE `tpay_tokenizations` (
	`tokenization_id` text PRIMARY KEY NOT NULL,
	`merchant_id` text NOT NULL,
	-- pending | success | declined
	`status` text NOT NULL,
	`body` text NOT NULL,
	`token` text,
	`created_at` integer NOT NULL
);
CREATE TABLE `tpay_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text NOT NULL,
	`url` text NOT NULL,
	`headers` text NOT NULL,
	`body` text NOT NULL,
	-- The app's answer: HTTP status (0: not reachable from here), and whether it said TRUE.
	`status` integer NOT NULL,
	`acknowledged` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `tpay_notifications_transaction` ON `tpay_notifications` (`transaction_id`);
CREATE TABLE `tpay_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
