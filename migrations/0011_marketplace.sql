CREATE TABLE `fee_statements` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`sales_count` integer NOT NULL,
	`sales_amount` integer NOT NULL,
	`fees_amount` integer NOT NULL,
	`covered_amount` integer DEFAULT 0 NOT NULL,
	`owed_amount` integer DEFAULT 0 NOT NULL,
	`invoice_status` text DEFAULT 'none' NOT NULL,
	`invoice_number` text,
	`emailed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fee_statements_unique` ON `fee_statements` (`tenant_id`,`month`,`currency`);--> statement-breakpoint
CREATE INDEX `fee_statements_tenant_idx` ON `fee_statements` (`tenant_id`,`month`);--> statement-breakpoint
CREATE TABLE `payout_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`provider` text NOT NULL,
	`account_ref` text NOT NULL,
	`status` text DEFAULT 'onboarding' NOT NULL,
	`charges_enabled` integer DEFAULT false NOT NULL,
	`payouts_enabled` integer DEFAULT false NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_tenant_provider_unique` ON `payout_accounts` (`tenant_id`,`provider`);--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_ref_unique` ON `payout_accounts` (`provider`,`account_ref`);--> statement-breakpoint
CREATE TABLE `platform_webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`purpose` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`url` text NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `platform_webhooks_unique` ON `platform_webhooks` (`provider`,`purpose`);--> statement-breakpoint
ALTER TABLE `transactions` ADD `payout_account_id` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `conversion_at` integer;--> statement-breakpoint
CREATE INDEX `transactions_status_idx` ON `transactions` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `transactions_collector_idx` ON `transactions` (`collector`,`completed_at`);