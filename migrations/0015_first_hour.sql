ALTER TABLE `auth_tokens` ADD `payload` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `bank_account_type` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `bank_swift` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `bank_routing_number` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `vat_mode` text DEFAULT 'vat' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `default_vat_rate` integer DEFAULT 23 NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `login_disabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `registration_disabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `simplified_checkout` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `terms_md` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `tenants` ADD `privacy_md` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `deleted_at` integer;