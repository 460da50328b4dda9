CREATE TABLE `company_lookups` (
	`key` text PRIMARY KEY NOT NULL,
	`found` integer NOT NULL,
	`company` text DEFAULT '{}' NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `memberships` ADD `card_update_ref` text;