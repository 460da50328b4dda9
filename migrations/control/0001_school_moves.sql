CREATE TABLE `school_moves` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`from_shard` integer NOT NULL,
	`to_shard` integer NOT NULL,
	`phase` text NOT NULL,
	`table_index` integer DEFAULT 0 NOT NULL,
	`last_key` text,
	`progress` text DEFAULT '{}' NOT NULL,
	`step` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `school_moves_one_open` ON `school_moves` (`tenant_id`) WHERE finished_at IS NULL;--> statement-breakpoint
CREATE INDEX `school_moves_tenant_idx` ON `school_moves` (`tenant_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `school_moves_open_idx` ON `school_moves` (`finished_at`,`started_at`);--> statement-breakpoint
ALTER TABLE `tenants` ADD `moving_since` integer;