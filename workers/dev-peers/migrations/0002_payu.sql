-- PayU REST v2.1 peer (src/payu.ts): OAuth tokens it issued and the orders created with them.
CREATE TABLE `payu_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
CREATE TABLE `payu_orders` (
	`order_id` text PRIMARY KEY NOT NULL,
	`ext_order_id` text,
	`pos_id` text NOT NULL,
	`status` text NOT NULL,
	-- The order as created (JSON, the request body), for GET /api/v2_1/orders/{id} and notifications.
	`body` text NOT NULL,
	`payment_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE UNIQUE INDEX `payu_orders_ext_unique` ON `payu_orders` (`pos_id`, `ext_order_id`);
