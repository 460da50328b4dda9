-- PayLane peer (src/paylane.ts): card tokens from paylane.js, sales / resales / authorizations,
-- refunds, the Merchant Panel's notification settings, notifications sent, and the "down" switch.
CREATE TABLE `paylane_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`login` text NOT NULL,
	`card_number` text NOT NULL,
	`expiration_month` text NOT NULL,
	`expiration_year` text NOT NULL,
	`name_on_card` text NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
-- Ids are given as MAX(id) + 1 from 7300001 (src/paylane.ts): far from small test numbers, like real ones.
CREATE TABLE `paylane_sales` (
	`id` integer PRIMARY KEY NOT NULL,
	`login` text NOT NULL,
	-- 'sale' (cards/saleByToken), 'resale' (resales/*), 'authorization' (cards/authorizationByToken)
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`description` text NOT NULL,
	`status` text NOT NULL,
	`card_number` text NOT NULL,
	`source_id` integer,
	`error_number` integer,
	`error_description` text,
	`processor_error_number` text,
	`created_at` integer NOT NULL
);
CREATE TABLE `paylane_refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id_sale` integer NOT NULL,
	`login` text NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE TABLE `paylane_panel` (
	`login` text PRIMARY KEY NOT NULL,
	`notification_url` text NOT NULL
);
CREATE TABLE `paylane_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`login` text NOT NULL,
	`id_sale` integer NOT NULL,
	`url` text NOT NULL,
	`headers` text NOT NULL,
	`body` text NOT NULL,
	`status` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `paylane_notifications_sale` ON `paylane_notifications` (`id_sale`);
CREATE TABLE `paylane_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
