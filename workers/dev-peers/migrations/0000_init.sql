-- State of the development peers (workers/dev-peers): DNS records served by the DoH responder,
-- custom hostnames of the Cloudflare API peer, injected faults and a request log.
CREATE TABLE `dns_records` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`value` text NOT NULL,
	`ttl` integer DEFAULT 300 NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `dns_records_name_idx` ON `dns_records` (`name`, `type`);

CREATE TABLE `custom_hostnames` (
	`id` text PRIMARY KEY NOT NULL,
	`zone_id` text NOT NULL,
	`hostname` text NOT NULL,
	`status` text NOT NULL,
	`ssl_id` text NOT NULL,
	`ssl_status` text NOT NULL,
	`ssl_method` text NOT NULL,
	`ssl_type` text NOT NULL,
	`ownership_name` text NOT NULL,
	`ownership_value` text NOT NULL,
	`validation_name` text NOT NULL,
	`validation_value` text NOT NULL,
	-- When the peer first saw the DNS that proves ownership; `status` turns active on a later read.
	`ownership_seen_at` integer,
	`created_at` text NOT NULL,
	`updated_at` integer NOT NULL
);
CREATE UNIQUE INDEX `custom_hostnames_zone_hostname_unique` ON `custom_hostnames` (`zone_id`, `hostname`);

CREATE TABLE `faults` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`target` text NOT NULL,
	`mode` text NOT NULL,
	`status` integer,
	`delay_ms` integer,
	`retry_after` integer,
	`remaining` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `faults_target_idx` ON `faults` (`target`, `remaining`);

CREATE TABLE `requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`target` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`auth` text,
	`body` text,
	`created_at` integer NOT NULL
);
CREATE INDEX `requests_target_idx` ON `requests` (`target`, `id`);
