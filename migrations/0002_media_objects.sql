CREATE TABLE `media_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`key` text NOT NULL,
	`context` text NOT NULL,
	`kind` text NOT NULL,
	`original_filename` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `media_objects_key_unique` ON `media_objects` (`key`);--> statement-breakpoint
CREATE INDEX `media_objects_tenant_idx` ON `media_objects` (`tenant_id`,`context`,`created_at`);--> statement-breakpoint
CREATE INDEX `media_objects_status_idx` ON `media_objects` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `tenants` ADD `avatar_path` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `cover_path` text;