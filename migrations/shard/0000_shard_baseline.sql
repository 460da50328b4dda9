CREATE TABLE `access_invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`product_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`status` text DEFAULT 'sent' NOT NULL,
	`user_id` text,
	`accepted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_invitations_unique` ON `access_invitations` (`tenant_id`,`transaction_id`,`email`);--> statement-breakpoint
CREATE INDEX `access_invitations_email_idx` ON `access_invitations` (`tenant_id`,`email`);--> statement-breakpoint
CREATE TABLE `action_throttles` (
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`action` text NOT NULL,
	`last_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `action_throttles_unique` ON `action_throttles` (`tenant_id`,`user_id`,`action`);--> statement-breakpoint
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
	`updated_at` integer NOT NULL
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
	FOREIGN KEY (`partner_id`) REFERENCES `affiliate_partners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `affiliate_payouts_partner_idx` ON `affiliate_payouts` (`tenant_id`,`partner_id`,`paid_at`);--> statement-breakpoint
CREATE TABLE `app_events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`type` text NOT NULL,
	`subject_id` text NOT NULL,
	`payload` text NOT NULL,
	`sent_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `app_events_subject_unique` ON `app_events` (`tenant_id`,`type`,`subject_id`);--> statement-breakpoint
CREATE INDEX `app_events_unsent_idx` ON `app_events` (`sent_at`,`created_at`);--> statement-breakpoint
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
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `articles_tenant_slug_unique` ON `articles` (`tenant_id`,`slug`);--> statement-breakpoint
CREATE INDEX `articles_tenant_idx` ON `articles` (`tenant_id`,`published_at`);--> statement-breakpoint
CREATE TABLE `auth_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`purpose` text NOT NULL,
	`token_hash` text NOT NULL,
	`payload` text,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_tokens_hash_unique` ON `auth_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `auth_tokens_tenant_user_idx` ON `auth_tokens` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `blocks` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`subpage_id` text NOT NULL,
	`type` text NOT NULL,
	`props` text DEFAULT '{}' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`subpage_id`) REFERENCES `subpages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blocks_tenant_subpage_idx` ON `blocks` (`tenant_id`,`subpage_id`,`position`);--> statement-breakpoint
CREATE TABLE `business_integrations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`provider` text NOT NULL,
	`credentials` text NOT NULL,
	`public_ref` text DEFAULT '' NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `business_integrations_kind_unique` ON `business_integrations` (`tenant_id`,`kind`);--> statement-breakpoint
CREATE TABLE `cancellation_surveys` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`membership_id` text NOT NULL,
	`user_id` text,
	`reason` text NOT NULL,
	`other_reason` text,
	`return_intent` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`membership_id`) REFERENCES `memberships`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cancellation_surveys_membership_unique` ON `cancellation_surveys` (`tenant_id`,`membership_id`);--> statement-breakpoint
CREATE INDEX `cancellation_surveys_tenant_idx` ON `cancellation_surveys` (`tenant_id`,`created_at`);--> statement-breakpoint
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
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_student_unique` ON `certificates` (`tenant_id`,`product_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `certificates_tenant_idx` ON `certificates` (`tenant_id`,`issued_at`);--> statement-breakpoint
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
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `comments_commentable_idx` ON `comments` (`tenant_id`,`commentable_type`,`commentable_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `comments_tenant_created_idx` ON `comments` (`tenant_id`,`created_at`);--> statement-breakpoint
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
	`has_media` integer GENERATED ALWAYS AS (image_path IS NOT NULL OR video_url IS NOT NULL OR video_id IS NOT NULL) VIRTUAL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`topic_id`) REFERENCES `community_topics`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `community_posts_topic_idx` ON `community_posts` (`tenant_id`,`topic_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `community_posts_tenant_created_idx` ON `community_posts` (`tenant_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `community_posts_media_idx` ON `community_posts` (`tenant_id`,`topic_id`,`has_media`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `community_subscriptions` (
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`topic_id` text NOT NULL,
	`last_sent_at` integer,
	`digest_due_at` integer,
	`created_at` integer NOT NULL,
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
	FOREIGN KEY (`course_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `community_topics_tenant_idx` ON `community_topics` (`tenant_id`,`position`);--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`template` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`provider_message_id` text,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `email_outbox_tenant_created_idx` ON `email_outbox` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `email_outbox_status_idx` ON `email_outbox` (`status`,`created_at`);--> statement-breakpoint
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
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `exams_lecture_unique` ON `exams` (`tenant_id`,`lecture_id`);--> statement-breakpoint
CREATE INDEX `exams_course_idx` ON `exams` (`tenant_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `fee_statements` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`sales_count` integer NOT NULL,
	`sales_amount` integer NOT NULL,
	`fees_amount` integer NOT NULL,
	`covered_amount` integer DEFAULT 0 NOT NULL,
	`owed_amount` integer DEFAULT 0 NOT NULL,
	`invoice_status` text DEFAULT 'none' NOT NULL,
	`invoice_number` text,
	`emailed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fee_statements_unique` ON `fee_statements` (`tenant_id`,`month`,`currency`);--> statement-breakpoint
CREATE INDEX `fee_statements_tenant_idx` ON `fee_statements` (`tenant_id`,`month`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`integration_id` text,
	`provider` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`external_id` text,
	`number` text,
	`url` text,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_transaction_unique` ON `invoices` (`tenant_id`,`transaction_id`);--> statement-breakpoint
CREATE TABLE `leads` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`source` text DEFAULT '' NOT NULL,
	`fields` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL
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
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lecture_components_idx` ON `lecture_components` (`tenant_id`,`lecture_id`,`position`);--> statement-breakpoint
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
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lecture_progress_unique` ON `lecture_progress` (`tenant_id`,`user_id`,`lecture_id`);--> statement-breakpoint
CREATE INDEX `lecture_progress_user_idx` ON `lecture_progress` (`tenant_id`,`user_id`,`product_id`,`last_viewed_at`);--> statement-breakpoint
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
	`drip_days` integer,
	`drip_at` integer,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`section_id`) REFERENCES `sections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `lectures_section_idx` ON `lectures` (`tenant_id`,`section_id`,`position`);--> statement-breakpoint
CREATE INDEX `lectures_course_idx` ON `lectures` (`tenant_id`,`product_id`);--> statement-breakpoint
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
CREATE TABLE `mailing_members` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`integration_id` text NOT NULL,
	`email` text NOT NULL,
	`source` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`external_id` text,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mailing_members_unique` ON `mailing_members` (`tenant_id`,`integration_id`,`email`);--> statement-breakpoint
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
	`completed_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `media_objects_key_unique` ON `media_objects` (`key`);--> statement-breakpoint
CREATE INDEX `media_objects_tenant_idx` ON `media_objects` (`tenant_id`,`context`,`created_at`);--> statement-breakpoint
CREATE INDEX `media_objects_status_idx` ON `media_objects` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `memberships` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`product_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`status` text DEFAULT 'started' NOT NULL,
	`period_months` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`provider` text,
	`integration_id` text,
	`provider_subscription_id` text,
	`current_period_end` integer,
	`next_charge_at` integer,
	`failed_charges` integer DEFAULT 0 NOT NULL,
	`card_brand` text,
	`card_last4` text,
	`card_exp_month` integer,
	`card_exp_year` integer,
	`card_token` text,
	`card_update_ref` text,
	`canceled_at` integer,
	`ended_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_transaction_unique` ON `memberships` (`tenant_id`,`transaction_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_provider_subscription_unique` ON `memberships` (`provider`,`provider_subscription_id`);--> statement-breakpoint
CREATE INDEX `memberships_user_idx` ON `memberships` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `memberships_due_idx` ON `memberships` (`status`,`next_charge_at`);--> statement-breakpoint
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
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`tenant_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `page_views` (
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`kind` text NOT NULL,
	`hour` integer NOT NULL,
	`views` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `page_views_unique` ON `page_views` (`tenant_id`,`kind`,`hour`,`product_id`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`provider` text NOT NULL,
	`event_key` text NOT NULL,
	`provider_status` text NOT NULL,
	`received_at` integer NOT NULL,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_events_unique` ON `payment_events` (`provider`,`event_key`);--> statement-breakpoint
CREATE INDEX `payment_events_tx_idx` ON `payment_events` (`tenant_id`,`transaction_id`);--> statement-breakpoint
CREATE TABLE `payment_integrations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`provider` text NOT NULL,
	`currency` text NOT NULL,
	`credentials` text NOT NULL,
	`public_ref` text DEFAULT '' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_integrations_unique` ON `payment_integrations` (`tenant_id`,`provider`,`currency`);--> statement-breakpoint
CREATE TABLE `payout_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`provider` text NOT NULL,
	`account_ref` text NOT NULL,
	`status` text DEFAULT 'onboarding' NOT NULL,
	`charges_enabled` integer DEFAULT false NOT NULL,
	`payouts_enabled` integer DEFAULT false NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_tenant_provider_unique` ON `payout_accounts` (`tenant_id`,`provider`);--> statement-breakpoint
CREATE UNIQUE INDEX `payout_accounts_ref_unique` ON `payout_accounts` (`provider`,`account_ref`);--> statement-breakpoint
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
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_access_unique` ON `product_access` (`tenant_id`,`product_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `product_access_user_idx` ON `product_access` (`tenant_id`,`user_id`,`product_id`);--> statement-breakpoint
CREATE TABLE `product_files` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`media_object_id` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`media_object_id`) REFERENCES `media_objects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_files_media_unique` ON `product_files` (`media_object_id`);--> statement-breakpoint
CREATE INDEX `product_files_product_idx` ON `product_files` (`tenant_id`,`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `product_links` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`parent_id` text NOT NULL,
	`product_id` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
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
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_prices_product_idx` ON `product_prices` (`tenant_id`,`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`cover_path` text,
	`category` text DEFAULT '' NOT NULL,
	`difficulty` text,
	`is_free` integer DEFAULT false NOT NULL,
	`vat_rate` integer,
	`promo_price` integer,
	`promo_starts_at` integer,
	`promo_ends_at` integer,
	`promo_limit` integer DEFAULT -1 NOT NULL,
	`promo_sold` integer DEFAULT 0 NOT NULL,
	`access_days` integer DEFAULT 0 NOT NULL,
	`access_until` integer DEFAULT 0 NOT NULL,
	`sale_limit` integer DEFAULT 0 NOT NULL,
	`hidden` integer DEFAULT false NOT NULL,
	`seo_title` text DEFAULT '' NOT NULL,
	`seo_description` text DEFAULT '' NOT NULL,
	`comments_enabled` integer DEFAULT true NOT NULL,
	`free_requires_login` integer DEFAULT false NOT NULL,
	`membership_period` integer,
	`membership_grants_all` integer DEFAULT false NOT NULL,
	`event_starts_at` integer,
	`event_timezone` text,
	`event_join_url` text,
	`consultation_minutes` integer,
	`shipping_courier_price` integer,
	`shipping_locker_price` integer,
	`bump_product_id` text,
	`bump_price` integer,
	`bump_text` text DEFAULT '' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `products_tenant_slug_unique` ON `products` (`tenant_id`,`slug`);--> statement-breakpoint
CREATE INDEX `products_tenant_kind_idx` ON `products` (`tenant_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `promo_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`code` text NOT NULL,
	`kind` text NOT NULL,
	`value` integer NOT NULL,
	`product_id` text,
	`starts_at` integer,
	`ends_at` integer,
	`usage_limit` integer DEFAULT -1 NOT NULL,
	`used_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_code_unique` ON `promo_codes` (`tenant_id`,`code`);--> statement-breakpoint
CREATE TABLE `promo_redemptions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`promo_code_id` text NOT NULL,
	`user_id` text NOT NULL,
	`transaction_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`promo_code_id`) REFERENCES `promo_codes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`transaction_id`) REFERENCES `transactions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_redemptions_unique` ON `promo_redemptions` (`tenant_id`,`promo_code_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `promo_redemptions_tx_unique` ON `promo_redemptions` (`transaction_id`);--> statement-breakpoint
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
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `replies_comment_idx` ON `replies` (`tenant_id`,`comment_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`user_id` text,
	`first_name` text DEFAULT '' NOT NULL,
	`rating` integer NOT NULL,
	`body` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`source_comment_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_product_user_unique` ON `reviews` (`product_id`,`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_source_comment_unique` ON `reviews` (`tenant_id`,`source_comment_id`);--> statement-breakpoint
CREATE INDEX `reviews_tenant_product_idx` ON `reviews` (`tenant_id`,`product_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `school_settings` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`author_name` text DEFAULT '' NOT NULL,
	`bio` text DEFAULT '' NOT NULL,
	`notification_prefs` text DEFAULT '{}' NOT NULL,
	`content_version` integer DEFAULT 0 NOT NULL,
	`bank_account` text,
	`bank_account_holder` text,
	`bank_account_type` text,
	`bank_swift` text,
	`bank_routing_number` text,
	`vat_mode` text DEFAULT 'vat' NOT NULL,
	`default_vat_rate` integer DEFAULT 23 NOT NULL,
	`terms_md` text DEFAULT '' NOT NULL,
	`privacy_md` text DEFAULT '' NOT NULL,
	`time_zone` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sections` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`product_id` text NOT NULL,
	`title` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sections_course_idx` ON `sections` (`tenant_id`,`product_id`,`position`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`user_agent` text,
	`ip` text,
	`created_at` integer NOT NULL,
	`last_verified_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`login_verified_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_tenant_user_idx` ON `sessions` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `signup_confirmations` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`confirmed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `signup_confirmations_hash_unique` ON `signup_confirmations` (`token_hash`);--> statement-breakpoint
CREATE INDEX `signup_confirmations_tenant_user_idx` ON `signup_confirmations` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `subpages` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`seo_title` text DEFAULT '' NOT NULL,
	`seo_description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subpages_tenant_slug_unique` ON `subpages` (`tenant_id`,`slug`);--> statement-breakpoint
CREATE INDEX `subpages_tenant_idx` ON `subpages` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `survey_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`survey_id` text NOT NULL,
	`user_id` text NOT NULL,
	`response` text NOT NULL,
	`responded_at` integer NOT NULL,
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
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `surveys_tenant_idx` ON `surveys` (`tenant_id`,`active`,`created_at`);--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`hash` text NOT NULL,
	`user_id` text,
	`product_id` text,
	`price_id` text,
	`product_kind` text NOT NULL,
	`product_title` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`currency` text NOT NULL,
	`unit_amount` integer NOT NULL,
	`discount_amount` integer DEFAULT 0 NOT NULL,
	`bump_product_id` text,
	`bump_amount` integer DEFAULT 0 NOT NULL,
	`shipping_amount` integer DEFAULT 0 NOT NULL,
	`total_amount` integer NOT NULL,
	`vat_amount` integer DEFAULT 0 NOT NULL,
	`fee_amount` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`provider` text,
	`integration_id` text,
	`provider_ref` text,
	`promo_code_id` text,
	`promo_price_applied` integer DEFAULT false NOT NULL,
	`buyer` text DEFAULT '{}' NOT NULL,
	`invoice_details` text,
	`shipping` text,
	`terms_accepted_at` integer NOT NULL,
	`withdrawal_waiver_at` integer,
	`checkout_path` text NOT NULL,
	`invoice_status` text DEFAULT 'none' NOT NULL,
	`completed_at` integer,
	`membership_id` text,
	`access_granted_at` integer,
	`collector` text DEFAULT 'school' NOT NULL,
	`hold_until` integer,
	`status_reason` text,
	`checked_at` integer,
	`payout_account_id` text,
	`conversion_at` integer,
	`shipping_status` text,
	`shipping_carrier` text,
	`tracking_number` text,
	`tracking_url` text,
	`shipped_at` integer,
	`delivered_at` integer,
	`affiliate_partner_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_hash_unique` ON `transactions` (`hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `transactions_provider_ref_unique` ON `transactions` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE INDEX `transactions_tenant_idx` ON `transactions` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_user_idx` ON `transactions` (`tenant_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_status_idx` ON `transactions` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `transactions_collector_idx` ON `transactions` (`collector`,`completed_at`);--> statement-breakpoint
CREATE INDEX `transactions_tenant_completed_idx` ON `transactions` (`tenant_id`,`completed_at`);--> statement-breakpoint
CREATE INDEX `transactions_shipping_idx` ON `transactions` (`tenant_id`,`shipping_status`,`created_at`);--> statement-breakpoint
CREATE INDEX `transactions_affiliate_idx` ON `transactions` (`tenant_id`,`affiliate_partner_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text NOT NULL,
	`phone` text,
	`vat_id` text,
	`deleted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_tenant_email_unique` ON `users` (`tenant_id`,`email`);--> statement-breakpoint
CREATE INDEX `users_tenant_role_idx` ON `users` (`tenant_id`,`role`);--> statement-breakpoint
CREATE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
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
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `verification_codes_session_idx` ON `verification_codes` (`tenant_id`,`session_id`,`sent_at`);--> statement-breakpoint
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
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `videos_bunny_unique` ON `videos` (`library_id`,`bunny_video_id`);--> statement-breakpoint
CREATE INDEX `videos_tenant_idx` ON `videos` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `votes` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`user_id` text NOT NULL,
	`votable_type` text NOT NULL,
	`votable_id` text NOT NULL,
	`value` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `votes_unique` ON `votes` (`tenant_id`,`user_id`,`votable_type`,`votable_id`);--> statement-breakpoint
CREATE INDEX `votes_votable_idx` ON `votes` (`tenant_id`,`votable_type`,`votable_id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`is_test` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_duration_ms` integer,
	`last_error` text,
	`delivered_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_unique` ON `webhook_deliveries` (`tenant_id`,`webhook_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_tenant_idx` ON `webhook_deliveries` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`event` text NOT NULL,
	`url` text NOT NULL,
	`secret` text NOT NULL,
	`secret_hint` text DEFAULT '' NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_unique` ON `webhooks` (`tenant_id`,`event`,`url`);--> statement-breakpoint
CREATE TABLE `withdrawals` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`bank_account` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`requested_by` text,
	`paid_at` integer,
	`paid_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `withdrawals_tenant_idx` ON `withdrawals` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `withdrawals_status_idx` ON `withdrawals` (`status`,`created_at`);