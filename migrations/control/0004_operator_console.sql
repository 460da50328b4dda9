CREATE TABLE `dead_letters` (
	`id` text PRIMARY KEY NOT NULL,
	`queue` text NOT NULL,
	`message_id` text NOT NULL,
	`tenant_id` text DEFAULT '' NOT NULL,
	`body` text NOT NULL,
	`reason` text NOT NULL,
	`attempts` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`resolved_by` text,
	`resolved_at` integer,
	`discard_reason` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dead_letters_message_unique` ON `dead_letters` (`queue`,`message_id`);--> statement-breakpoint
CREATE INDEX `dead_letters_status_idx` ON `dead_letters` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `dead_letters_tenant_idx` ON `dead_letters` (`tenant_id`,`status`);--> statement-breakpoint
CREATE TABLE `operator_invites` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`secret_hash` text NOT NULL,
	`invited_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`accepted_at` integer
);
--> statement-breakpoint
CREATE INDEX `operator_invites_email_idx` ON `operator_invites` (`email`);--> statement-breakpoint
CREATE TABLE `operator_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`operator_id` text,
	`author_label` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `operator_notes_tenant_idx` ON `operator_notes` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `operator_recovery_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`operator_id` text NOT NULL,
	`code_hash` text NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_recovery_codes_hash_unique` ON `operator_recovery_codes` (`operator_id`,`code_hash`);--> statement-breakpoint
CREATE TABLE `school_exports` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`requested_by` text NOT NULL,
	`r2_key` text,
	`size_bytes` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	`expires_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `school_exports_tenant_idx` ON `school_exports` (`tenant_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `operator_sessions` ADD `two_factor_at` integer;--> statement-breakpoint
ALTER TABLE `operator_sessions` ADD `ip` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `operator_sessions` ADD `user_agent` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `operators` ADD `role` text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE `operators` ADD `totp_key` text;--> statement-breakpoint
ALTER TABLE `operators` ADD `totp_enabled_at` integer;--> statement-breakpoint
ALTER TABLE `operators` ADD `totp_last_step` integer;--> statement-breakpoint
ALTER TABLE `operators` ADD `last_sign_in_at` integer;--> statement-breakpoint
ALTER TABLE `tenants` ADD `deletion_due_at` integer;