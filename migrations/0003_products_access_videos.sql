CREATE TABLE `product_access` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`user_id` text NOT NULL,
	`source` text NOT NULL,
	`reason` text,
	`granted_by` text,
	`starts_at` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer,
	`revoked_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_access_unique` ON `product_access` (`tenant_id`,`product_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `product_access_user_idx` ON `product_access` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `product_files` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`media_object_id` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`media_object_id`) REFERENCES `media_objects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_files_media_unique` ON `product_files` (`media_object_id`);--> statement-breakpoint
CREATE INDEX `product_files_product_idx` ON `product_files` (`tenant_id`,`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_tenant_slug_unique` ON `products` (`tenant_id`,`slug`);--> statement-breakpoint
CREATE INDEX `products_tenant_kind_idx` ON `products` (`tenant_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `videos` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`library_id` text NOT NULL,
	`bunny_video_id` text NOT NULL,
	`title` text NOT NULL,
	`original_filename` text NOT NULL,
	`size` integer NOT NULL,
	`state` text DEFAULT 'awaiting_upload' NOT NULL,
	`bunny_status` integer,
	`length_seconds` integer,
	`created_by` text,
	`checked_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `videos_bunny_unique` ON `videos` (`library_id`,`bunny_video_id`);--> statement-breakpoint
CREATE INDEX `videos_tenant_idx` ON `videos` (`tenant_id`,`created_at`);