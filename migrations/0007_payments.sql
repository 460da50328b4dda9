CREATE TABLE `access_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`status` text DEFAULT 'sent' NOT NULL,
	`user_id` text,
	`accepted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_invitations_unique` ON `access_invitations` (`tenant_id`,`transaction_id`,`email`);--> statement-breakpoint
CREATE INDEX `access_invitations_email_idx` ON `access_invitations` (`tenant_id`,`email`);--> statement-breakpoint
CREATE TABLE `app_events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`type` text NOT NULL,
	`subject_id` text NOT NULL,
	`payload` text NOT NULL,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `app_events_subject_unique` ON `app_events` (`tenant_id`,`type`,`subject_id`);--> statement-breakpoint
CREATE INDEX `app_events_unsent_idx` ON `app_events` (`sent_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`provider` text NOT NULL,
	`event_key` text NOT NULL,
	`provider_status` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_events_unique` ON `payment_events` (`provider`,`event_key`);--> statement-breakpoint
CREATE INDEX `payment_events_tx_idx` ON `payment_events` (`tenant_id`,`transaction_id`);--> statement-breakpoint
CREATE TABLE `payment_integrations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`provider` text NOT NULL,
	`currency` text NOT NULL,
	`credentials` text NOT NULL,
	`public_ref` text DEFAULT '' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_integrations_unique` ON `payment_integrations` (`tenant_id`,`provider`,`currency`);--> statement-breakpoint
CREATE TABLE `promo_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`code` text NOT NULL,
	`kind` text NOT NULL,
	`value` integer NOT NULL,
	`product_id` text,
	`starts_at` integer,
	`ends_at` integer,
	`usage_limit` integer DEFAULT -1 NOT NULL,
	`used_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_code_unique` ON `promo_codes` (`tenant_id`,`code`);--> statement-breakpoint
CREATE TABLE `promo_redemptions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`promo_code_id` text NOT NULL,
	`user_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`promo_code_id`) REFERENCES `promo_codes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_redemptions_unique` ON `promo_redemptions` (`tenant_id`,`promo_code_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `promo_redemptions_tx_unique` ON `promo_redemptions` (`transaction_id`);--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`hash` text NOT NULL,
	`user_id` text,
	`product_id` text,
	`price_id` text,
	`product_kind` text NOT NULL,
	`product_title` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`currency` text NOT NULL,
	`unit_amount` integer NOT NULL,
	`discount_amount` integer DEFAULT 0 NOT NULL,
	`bump_product_id` text,
	`bump_amount` integer DEFAULT 0 NOT NULL,
	`shipping_amount` integer DEFAULT 0 NOT NULL,
	`total_amount` integer NOT NULL,
	`vat_amount` integer DEFAULT 0 NOT NULL,
	`fee_amount` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`provider` text,
	`integration_id` text,
	`provider_ref` text,
	`promo_code_id` text,
	`promo_price_applied` integer DEFAULT false NOT NULL,
	`buyer` text DEFAULT '{}' NOT NULL,
	`invoice_details` text,
	`shipping` text,
	`terms_accepted_at` integer NOT NULL,
	`withdrawal_waiver_at` integer,
	`checkout_path` text NOT NULL,
	`invoice_status` text DEFAULT 'none' NOT NULL,
	`completed_at` integer,
	`access_granted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_hash_unique` ON `transactions` (`hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_provider_ref_unique` ON `transactions` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE INDEX `transactions_tenant_idx` ON `transactions` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_user_idx` ON `transactions` (`tenant_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `withdrawals` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`bank_account` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`requested_by` text,
	`paid_at` integer,
	`paid_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `withdrawals_tenant_idx` ON `withdrawals` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `withdrawals_status_idx` ON `withdrawals` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `products` ADD `bump_product_id` text;--> statement-breakpoint
ALTER TABLE `products` ADD `bump_price` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `bump_text` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `bank_account` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `bank_account_holder` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `fee_basis_points` integer;--> statement-breakpoint
ALTER TABLE `tenants` ADD `fee_fixed` integer;