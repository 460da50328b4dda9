DROP INDEX `product_access_user_idx`;--> statement-breakpoint
CREATE INDEX `product_access_user_idx` ON `product_access` (`tenant_id`,`user_id`,`product_id`);