-- Mailchimp Marketing API peer (src/mailchimp.ts): accounts (API key + data center), audiences
-- (lists) with their merge fields, members, and injected failures of the next member upserts.
CREATE TABLE `mailchimp_accounts` (
	-- The whole key as Mailchimp issues it: `{32 hex}-{dc}`.
	`api_key` text PRIMARY KEY NOT NULL,
	`dc` text NOT NULL,
	`account_name` text NOT NULL
);
CREATE TABLE `mailchimp_lists` (
	`id` text PRIMARY KEY NOT NULL,
	`api_key` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE TABLE `mailchimp_merge_fields` (
	`list_id` text NOT NULL,
	`merge_id` integer NOT NULL,
	`tag` text NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'text' NOT NULL,
	`required` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY (`list_id`, `tag`)
);
CREATE TABLE `mailchimp_members` (
	`list_id` text NOT NULL,
	-- MD5 of the lower-cased address: the member's id in the API.
	`id` text NOT NULL,
	`email_address` text NOT NULL,
	`status` text NOT NULL,
	-- JSON object of merge tag → value.
	`merge_fields` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY (`list_id`, `id`)
);
CREATE TABLE `mailchimp_faults` (
	`scope` text PRIMARY KEY NOT NULL,
	-- Member upserts still to fail with `status` (Mailchimp's own error answer).
	`remaining` integer NOT NULL,
	`status` integer NOT NULL
);
-- Development account (the values to type on /home/integrations/mailchimp in development): one key
-- in data center us21, an audience with FNAME and one without it.
INSERT INTO `mailchimp_accounts` (`api_key`, `dc`, `account_name`) VALUES
	('c0ffee00c0ffee00c0ffee00c0ffee00-us21', 'us21', 'Coursefront dev');
INSERT INTO `mailchimp_lists` (`id`, `api_key`, `name`, `created_at`) VALUES
	('c0de000001', 'c0ffee00c0ffee00c0ffee00c0ffee00-us21', 'Newsletter', 0),
	('c0de000002', 'c0ffee00c0ffee00c0ffee00c0ffee00-us21', 'No first names', 0);
INSERT INTO `mailchimp_merge_fields` (`list_id`, `merge_id`, `tag`, `name`, `type`, `required`) VALUES
	('c0de000001', 1, 'FNAME', 'First Name', 'text', 0),
	('c0de000001', 2, 'LNAME', 'Last Name', 'text', 0),
	('c0de000002', 2, 'LNAME', 'Last Name', 'text', 0),
	('c0de000002', 3, 'PHONE', 'Phone Number', 'phone', 0);
