CREATE TABLE `signup_confirmations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`confirmed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signup_confirmations_hash_unique` ON `signup_confirmations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `signup_confirmations_tenant_user_idx` ON `signup_confirmations` (`tenant_id`,`user_id`);--> statement-breakpoint
ALTER TABLE `login_attempts` ADD `lockouts` integer DEFAULT 0 NOT NULL;