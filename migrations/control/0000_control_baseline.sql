CREATE TABLE `company_lookups` (
	`key` text PRIMARY KEY NOT NULL,
	`found` integer NOT NULL,
	`company` text DEFAULT '{}' NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `domain_events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`domain_id` text NOT NULL,
	`hostname` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`detail` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `domain_events_tenant_domain_idx` ON `domain_events` (`tenant_id`,`domain_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `domains` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`hostname` text NOT NULL,
	`kind` text NOT NULL,
	`verification_status` text DEFAULT 'pending_dns' NOT NULL,
	`is_primary` integer DEFAULT false NOT NULL,
	`cf_hostname_id` text,
	`cf_status` text,
	`ssl_status` text,
	`ownership_txt_name` text,
	`ownership_txt_value` text,
	`ssl_validation_records` text,
	`dns_observed` text,
	`problem` text,
	`last_error` text,
	`check_count` integer DEFAULT 0 NOT NULL,
	`last_checked_at` integer,
	`next_check_at` integer,
	`verification_started_at` integer,
	`activated_at` integer,
	`problem_notified_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `domains_hostname_unique` ON `domains` (`hostname`);--> statement-breakpoint
CREATE INDEX `domains_tenant_idx` ON `domains` (`tenant_id`);--> statement-breakpoint
CREATE INDEX `domains_due_idx` ON `domains` (`verification_status`,`next_check_at`);--> statement-breakpoint
CREATE TABLE `login_attempts` (
	`tenant_id` text NOT NULL,
	`throttle_key` text NOT NULL,
	`failures` integer NOT NULL,
	`first_failure_at` integer NOT NULL,
	`locked_until` integer,
	`lockouts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `login_attempts_tenant_key_unique` ON `login_attempts` (`tenant_id`,`throttle_key`);--> statement-breakpoint
CREATE TABLE `operator_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`operator_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_verified_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `operator_sessions_operator_idx` ON `operator_sessions` (`operator_id`);--> statement-breakpoint
CREATE TABLE `operators` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operators_email_unique` ON `operators` (`email`);--> statement-breakpoint
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
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`language` text NOT NULL,
	`currency` text NOT NULL,
	`avatar_path` text,
	`cover_path` text,
	`contact_email` text DEFAULT '' NOT NULL,
	`template` text DEFAULT 'classic' NOT NULL,
	`custom_js` text DEFAULT '' NOT NULL,
	`conversion_code` text DEFAULT '' NOT NULL,
	`login_verification` text DEFAULT 'off' NOT NULL,
	`login_disabled` integer DEFAULT false NOT NULL,
	`registration_disabled` integer DEFAULT false NOT NULL,
	`simplified_checkout` integer DEFAULT false NOT NULL,
	`fee_basis_points` integer,
	`fee_fixed` integer,
	`shard` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_slug_unique` ON `tenants` (`slug`);--> statement-breakpoint
CREATE INDEX `tenants_created_at_idx` ON `tenants` (`created_at`);