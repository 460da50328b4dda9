-- Webhook receiver peer (src/webhook-receiver.ts): a stand-in for a school's server. Per inbox
-- (a path segment, so tests and developers do not see each other's requests): what it should
-- answer next, and every request it received.
CREATE TABLE `webhook_receiver_plans` (
	`inbox` text PRIMARY KEY NOT NULL,
	-- Failures still to answer before 200s; -1 = fail forever.
	`fail_remaining` integer NOT NULL,
	`fail_status` integer NOT NULL,
	-- Wait before answering (a slow receiver, for the sender's timeout).
	`delay_ms` integer NOT NULL DEFAULT 0,
	`updated_at` integer NOT NULL
);
CREATE TABLE `webhook_receiver_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`inbox` text NOT NULL,
	`headers` text NOT NULL,
	`body` text NOT NULL,
	`status` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `webhook_receiver_requests_inbox_idx` ON `webhook_receiver_requests` (`inbox`, `id`);
