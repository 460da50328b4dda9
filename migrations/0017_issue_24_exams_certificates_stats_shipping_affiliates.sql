CREATE TABLE `affiliate_commissions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`currency` text NOT NULL,
	`sale_amount` integer NOT NULL,
	`amount` integer NOT NULL,
	`status` text DEFAULT 'accrued' NOT NULL,
	`reversed_at` integer,
	`payout_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`partner_id`) REFERENCES `affiliate_partners`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `affiliate_commissions_tx_unique` ON `affiliate_commissions` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `affiliate_commissions_partner_idx` ON `affiliate_commissions` (`tenant_id`,`partner_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `affiliate_partners` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`code` text NOT NULL,
	`commission_kind` text NOT NULL,
	`commission_value` integer NOT NULL,
	`cookie_days` integer DEFAULT 30 NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `affiliate_partners_code_unique` ON `affiliate_partners` (`tenant_id`,`code`);--> statement-breakpoint
CREATE TABLE `affiliate_payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`paid_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`partner_id`) REFERENCES `affiliate_partners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `affiliate_payouts_partner_idx` ON `affiliate_payouts` (`tenant_id`,`partner_id`,`paid_at`);--> statement-breakpoint
CREATE TABLE `certificate_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`language` text,
	`signature_name` text DEFAULT '' NOT NULL,
	`signature_image_key` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificate_settings_course_unique` ON `certificate_settings` (`tenant_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `certificates` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text,
	`user_id` text,
	`student_name` text NOT NULL,
	`course_title` text NOT NULL,
	`language` text NOT NULL,
	`issued_at` integer NOT NULL,
	`pdf_key` text,
	`revoked_at` integer,
	`revoked_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_student_unique` ON `certificates` (`tenant_id`,`product_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `certificates_tenant_idx` ON `certificates` (`tenant_id`,`issued_at`);--> statement-breakpoint
CREATE TABLE `exam_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`exam_id` text NOT NULL,
	`user_id` text NOT NULL,
	`number` integer NOT NULL,
	`started_at` integer NOT NULL,
	`deadline_at` integer,
	`submitted_at` integer,
	`layout` text DEFAULT '{}' NOT NULL,
	`answers` text DEFAULT '{}' NOT NULL,
	`grades` text DEFAULT '{}' NOT NULL,
	`score` integer DEFAULT 0 NOT NULL,
	`max_score` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'in_progress' NOT NULL,
	`reset_at` integer,
	`graded_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`exam_id`) REFERENCES `exams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `exam_attempts_number_unique` ON `exam_attempts` (`tenant_id`,`exam_id`,`user_id`,`number`);--> statement-breakpoint
CREATE INDEX `exam_attempts_exam_idx` ON `exam_attempts` (`tenant_id`,`exam_id`,`status`,`started_at`);--> statement-breakpoint
CREATE INDEX `exam_attempts_user_idx` ON `exam_attempts` (`tenant_id`,`user_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `exam_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`exam_id` text NOT NULL,
	`kind` text NOT NULL,
	`prompt` text NOT NULL,
	`options` text DEFAULT '[]' NOT NULL,
	`points` integer DEFAULT 1 NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`exam_id`) REFERENCES `exams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `exam_questions_exam_idx` ON `exam_questions` (`tenant_id`,`exam_id`,`position`);--> statement-breakpoint
CREATE TABLE `exams` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`lecture_id` text NOT NULL,
	`pass_percent` integer DEFAULT 60 NOT NULL,
	`attempts_allowed` integer DEFAULT 0 NOT NULL,
	`time_limit_minutes` integer,
	`shuffle_questions` integer DEFAULT false NOT NULL,
	`shuffle_answers` integer DEFAULT false NOT NULL,
	`show_answers` integer DEFAULT true NOT NULL,
	`required` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `exams_lecture_unique` ON `exams` (`tenant_id`,`lecture_id`);--> statement-breakpoint
CREATE INDEX `exams_course_idx` ON `exams` (`tenant_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `page_views` (
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`kind` text NOT NULL,
	`hour` integer NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `page_views_unique` ON `page_views` (`tenant_id`,`kind`,`hour`,`product_id`);--> statement-breakpoint
ALTER TABLE `tenants` ADD `time_zone` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `shipping_status` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `shipping_carrier` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `tracking_number` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `tracking_url` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `shipped_at` integer;--> statement-breakpoint
ALTER TABLE `transactions` ADD `delivered_at` integer;--> statement-breakpoint
ALTER TABLE `transactions` ADD `affiliate_partner_id` text;--> statement-breakpoint
CREATE INDEX `transactions_tenant_completed_idx` ON `transactions` (`tenant_id`,`completed_at`);--> statement-breakpoint
CREATE INDEX `transactions_shipping_idx` ON `transactions` (`tenant_id`,`shipping_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_affiliate_idx` ON `transactions` (`tenant_id`,`affiliate_partner_id`,`created_at`);--> statement-breakpoint
-- Physical orders placed before shipping states existed start ready for shipping.
UPDATE `transactions` SET `shipping_status` = 'ready' WHERE `product_kind` = 'physical';
