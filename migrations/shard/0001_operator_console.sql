ALTER TABLE `users` ADD `last_sign_in_at` integer;--> statement-breakpoint
CREATE INDEX `invoices_status_idx` ON `invoices` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `mailing_members_status_idx` ON `mailing_members` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_idx` ON `webhook_deliveries` (`status`,`updated_at`);