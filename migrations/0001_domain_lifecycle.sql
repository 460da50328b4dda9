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
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_domains` (
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
-- Hand-edited: drizzle-kit selected the new columns from the old table. Copy only the old
-- columns, and rename the old 'pending' state to 'pending_dns'.
INSERT INTO `__new_domains`("id", "tenant_id", "hostname", "kind", "verification_status", "created_at", "updated_at") SELECT "id", "tenant_id", "hostname", "kind", CASE "verification_status" WHEN 'pending' THEN 'pending_dns' ELSE "verification_status" END, "created_at", "updated_at" FROM `domains`;--> statement-breakpoint
DROP TABLE `domains`;--> statement-breakpoint
ALTER TABLE `__new_domains` RENAME TO `domains`;--> statement-breakpoint
PRAGMA defer_foreign_keys = off;--> statement-breakpoint
CREATE UNIQUE INDEX `domains_hostname_unique` ON `domains` (`hostname`);--> statement-breakpoint
CREATE INDEX `domains_tenant_idx` ON `domains` (`tenant_id`);--> statement-breakpoint
CREATE INDEX `domains_due_idx` ON `domains` (`verification_status`,`next_check_at`);