CREATE TABLE `comments` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`commentable_type` text NOT NULL,
	`commentable_id` text NOT NULL,
	`product_id` text,
	`user_id` text,
	`author_name` text NOT NULL,
	`by_admin` integer DEFAULT false NOT NULL,
	`body` text NOT NULL,
	`video_id` text,
	`replies_count` integer DEFAULT 0 NOT NULL,
	`up_votes_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `comments_commentable_idx` ON `comments` (`tenant_id`,`commentable_type`,`commentable_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_tenant_created_idx` ON `comments` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `lecture_progress` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`product_id` text NOT NULL,
	`lecture_id` text NOT NULL,
	`position_seconds` integer DEFAULT 0 NOT NULL,
	`watched_seconds` integer DEFAULT 0 NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`starred` integer DEFAULT false NOT NULL,
	`completed_at` integer,
	`last_viewed_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lecture_progress_unique` ON `lecture_progress` (`tenant_id`,`user_id`,`lecture_id`);--> statement-breakpoint
CREATE INDEX `lecture_progress_user_idx` ON `lecture_progress` (`tenant_id`,`user_id`,`product_id`,`last_viewed_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`actor_name` text DEFAULT '' NOT NULL,
	`excerpt` text DEFAULT '' NOT NULL,
	`link` text DEFAULT '' NOT NULL,
	`read_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`tenant_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `replies` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`comment_id` text NOT NULL,
	`user_id` text,
	`author_name` text NOT NULL,
	`by_admin` integer DEFAULT false NOT NULL,
	`body` text NOT NULL,
	`image_path` text,
	`up_votes_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `replies_comment_idx` ON `replies` (`tenant_id`,`comment_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `survey_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`survey_id` text NOT NULL,
	`user_id` text NOT NULL,
	`response` text NOT NULL,
	`responded_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`survey_id`) REFERENCES `surveys`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `survey_responses_unique` ON `survey_responses` (`tenant_id`,`survey_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `survey_responses_survey_idx` ON `survey_responses` (`tenant_id`,`survey_id`,`responded_at`);--> statement-breakpoint
CREATE TABLE `surveys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`questions` text DEFAULT '[]' NOT NULL,
	`active` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `surveys_tenant_idx` ON `surveys` (`tenant_id`,`active`,`created_at`);--> statement-breakpoint
CREATE TABLE `verification_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`channel` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`sent_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`consumed_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `verification_codes_session_idx` ON `verification_codes` (`tenant_id`,`session_id`,`sent_at`);--> statement-breakpoint
CREATE TABLE `votes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`votable_type` text NOT NULL,
	`votable_id` text NOT NULL,
	`value` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `votes_unique` ON `votes` (`tenant_id`,`user_id`,`votable_type`,`votable_id`);--> statement-breakpoint
CREATE INDEX `votes_votable_idx` ON `votes` (`tenant_id`,`votable_type`,`votable_id`);--> statement-breakpoint
ALTER TABLE `lectures` ADD `drip_days` integer;--> statement-breakpoint
ALTER TABLE `lectures` ADD `drip_at` integer;--> statement-breakpoint
ALTER TABLE `products` ADD `free_requires_login` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `reviews` ADD `source_comment_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_source_comment_unique` ON `reviews` (`tenant_id`,`source_comment_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `login_verified_at` integer;--> statement-breakpoint
ALTER TABLE `tenants` ADD `login_verification` text DEFAULT 'off' NOT NULL;