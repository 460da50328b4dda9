CREATE TABLE `cancellation_surveys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`membership_id` text NOT NULL,
	`user_id` text,
	`reason` text NOT NULL,
	`other_reason` text,
	`return_intent` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`membership_id`) REFERENCES `memberships`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cancellation_surveys_membership_unique` ON `cancellation_surveys` (`tenant_id`,`membership_id`);--> statement-breakpoint
CREATE INDEX `cancellation_surveys_tenant_idx` ON `cancellation_surveys` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`product_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`status` text DEFAULT 'started' NOT NULL,
	`period_months` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`provider` text,
	`integration_id` text,
	`provider_subscription_id` text,
	`current_period_end` integer,
	`next_charge_at` integer,
	`failed_charges` integer DEFAULT 0 NOT NULL,
	`card_brand` text,
	`card_last4` text,
	`card_exp_month` integer,
	`card_exp_year` integer,
	`card_token` text,
	`canceled_at` integer,
	`ended_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_transaction_unique` ON `memberships` (`tenant_id`,`transaction_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_provider_subscription_unique` ON `memberships` (`provider`,`provider_subscription_id`);--> statement-breakpoint
CREATE INDEX `memberships_user_idx` ON `memberships` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `memberships_due_idx` ON `memberships` (`status`,`next_charge_at`);--> statement-breakpoint
ALTER TABLE `transactions` ADD `membership_id` text;