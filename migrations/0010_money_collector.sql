ALTER TABLE `transactions` ADD `collector` text DEFAULT 'school' NOT NULL;--> statement-breakpoint
ALTER TABLE `transactions` ADD `hold_until` integer;--> statement-breakpoint
ALTER TABLE `transactions` ADD `status_reason` text;--> statement-breakpoint
ALTER TABLE `transactions` ADD `checked_at` integer;--> statement-breakpoint
-- Sales through the built-in test provider (no school integration) were paid to the platform.
UPDATE `transactions` SET `collector` = 'platform', `hold_until` = coalesce(`completed_at`, `created_at`) + 7 * 86400000 WHERE `provider` = 'test' AND (`integration_id` IS NULL OR `integration_id` = 'test');
