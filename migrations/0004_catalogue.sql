CREATE TABLE `action_throttles` (
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`action` text NOT NULL,
	`last_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_throttles_unique` ON `action_throttles` (`tenant_id`,`user_id`,`action`);--> statement-breakpoint
CREATE TABLE `articles` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`author_name` text DEFAULT '' NOT NULL,
	`cover_path` text,
	`published_at` integer,
	`published` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `articles_tenant_slug_unique` ON `articles` (`tenant_id`,`slug`);--> statement-breakpoint
CREATE INDEX `articles_tenant_idx` ON `articles` (`tenant_id`,`published_at`);--> statement-breakpoint
CREATE TABLE `leads` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`source` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `leads_tenant_email_unique` ON `leads` (`tenant_id`,`email`);--> statement-breakpoint
CREATE INDEX `leads_tenant_created_idx` ON `leads` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `lecture_components` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`lecture_id` text NOT NULL,
	`kind` text NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lecture_components_idx` ON `lecture_components` (`tenant_id`,`lecture_id`,`position`);--> statement-breakpoint
CREATE TABLE `lectures` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`section_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`kind` text NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`video_id` text,
	`source_url` text,
	`pdf_key` text,
	`run_time_seconds` integer DEFAULT 0 NOT NULL,
	`free_to_watch` integer DEFAULT false NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`comments_enabled` integer DEFAULT true NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`section_id`) REFERENCES `sections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `lectures_section_idx` ON `lectures` (`tenant_id`,`section_id`,`position`);--> statement-breakpoint
CREATE INDEX `lectures_course_idx` ON `lectures` (`tenant_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `product_links` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`parent_id` text NOT NULL,
	`product_id` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_links_unique` ON `product_links` (`tenant_id`,`parent_id`,`product_id`);--> statement-breakpoint
CREATE INDEX `product_links_product_idx` ON `product_links` (`tenant_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `product_price_history` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`price_id` text,
	`amount` integer NOT NULL,
	`kind` text DEFAULT 'standard' NOT NULL,
	`recorded_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_price_history_idx` ON `product_price_history` (`tenant_id`,`product_id`,`recorded_at`);--> statement-breakpoint
CREATE TABLE `product_prices` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`amount` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_prices_product_idx` ON `product_prices` (`tenant_id`,`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `sections` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`title` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sections_course_idx` ON `sections` (`tenant_id`,`product_id`,`position`);--> statement-breakpoint
ALTER TABLE `products` ADD `cover_path` text;--> statement-breakpoint
ALTER TABLE `products` ADD `category` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `difficulty` text;--> statement-breakpoint
ALTER TABLE `products` ADD `is_free` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `vat_rate` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `promo_price` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `promo_starts_at` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `promo_ends_at` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `promo_limit` integer DEFAULT -1 NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `promo_sold` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `access_days` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `access_until` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `sale_limit` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `hidden` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `seo_title` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `seo_description` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `comments_enabled` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `membership_period` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `membership_grants_all` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `event_starts_at` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `event_timezone` text;--> statement-breakpoint
ALTER TABLE `products` ADD `event_join_url` text;--> statement-breakpoint
ALTER TABLE `products` ADD `consultation_minutes` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `shipping_courier_price` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `shipping_locker_price` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `position` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `author_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `bio` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `contact_email` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `template` text DEFAULT 'classic' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `custom_js` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `conversion_code` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `notification_prefs` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `phone` text;--> statement-breakpoint
ALTER TABLE `users` ADD `vat_id` text;