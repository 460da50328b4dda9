-- Przelewy24 REST API v1 peer (src/p24.ts): registered transactions, refunds, the notifications it
-- sent, and the fault switch.
CREATE TABLE `p24_transactions` (
	`token` text PRIMARY KEY NOT NULL,
	`merchant_id` integer NOT NULL,
	`pos_id` integer NOT NULL,
	`session_id` text NOT NULL,
	`order_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	-- The transaction/register request as sent (JSON): description, urlReturn, urlStatus, language, method…
	`body` text NOT NULL,
	-- P24's transaction status: 0 no payment, 1 advance payment (paid, not verified), 2 payment made, 3 payment returned.
	`status` integer NOT NULL DEFAULT 0,
	-- BLIK charged by code (chargeByCode): 'awaiting' the buyer's confirmation in the bank app, then 'approved' or 'rejected'.
	`blik` text,
	-- The last attempt that did not pay ('declined', 'invalid_code'): shown on the hosted page.
	`last_error` text,
	`method_id` integer,
	`statement` text,
	`refunded` integer NOT NULL DEFAULT 0,
	`created_at` integer NOT NULL,
	`paid_at` integer
);
CREATE UNIQUE INDEX `p24_transactions_session` ON `p24_transactions` (`pos_id`, `session_id`);
CREATE UNIQUE INDEX `p24_transactions_order` ON `p24_transactions` (`order_id`);
CREATE TABLE `p24_refunds` (
	`pos_id` integer NOT NULL,
	`request_id` text NOT NULL,
	`refunds_uuid` text NOT NULL,
	`batch_id` integer NOT NULL,
	`order_id` integer NOT NULL,
	`session_id` text NOT NULL,
	`amount` integer NOT NULL,
	`description` text,
	-- 1 completed, 2 pending, 3 awaiting P24's acceptance, 4 rejected (the peer completes at once).
	`status` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY (`pos_id`, `request_id`, `order_id`)
);
CREATE TABLE `p24_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pos_id` integer NOT NULL,
	`session_id` text NOT NULL,
	`url` text NOT NULL,
	`headers` text NOT NULL,
	`body` text NOT NULL,
	-- What the app answered (0: not reachable from here).
	`status` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `p24_notifications_session` ON `p24_notifications` (`session_id`, `id`);
CREATE TABLE `p24_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
