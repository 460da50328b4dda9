CREATE TABLE `community_posts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`topic_id` text NOT NULL,
	`user_id` text,
	`author_name` text NOT NULL,
	`by_admin` integer DEFAULT false NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`image_path` text,
	`video_url` text,
	`video_id` text,
	`comments_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`topic_id`) REFERENCES `community_topics`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `community_posts_topic_idx` ON `community_posts` (`tenant_id`,`topic_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `community_posts_tenant_created_idx` ON `community_posts` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `community_subscriptions` (
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`topic_id` text NOT NULL,
	`last_sent_at` integer,
	`digest_due_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`topic_id`) REFERENCES `community_topics`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_subscriptions_unique` ON `community_subscriptions` (`tenant_id`,`user_id`,`topic_id`);--> statement-breakpoint
CREATE INDEX `community_subscriptions_topic_idx` ON `community_subscriptions` (`tenant_id`,`topic_id`);--> statement-breakpoint
CREATE INDEX `community_subscriptions_digest_idx` ON `community_subscriptions` (`digest_due_at`);--> statement-breakpoint
CREATE TABLE `community_topic_products` (
	`tenant_id` text NOT NULL,
	`topic_id` text NOT NULL,
	`product_id` text NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`topic_id`) REFERENCES `community_topics`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `community_topic_products_unique` ON `community_topic_products` (`tenant_id`,`topic_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `community_topics` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`allow_students_to_add_posts` integer DEFAULT true NOT NULL,
	`access` text DEFAULT 'public' NOT NULL,
	`course_id` text,
	`position` integer DEFAULT 0 NOT NULL,
	`pinned_post_id` text,
	`archived_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `community_topics_tenant_idx` ON `community_topics` (`tenant_id`,`position`);