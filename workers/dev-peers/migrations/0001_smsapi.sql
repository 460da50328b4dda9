-- The SMSAPI.pl peer (src/smsapi.ts): every accepted message, so tests and developers can read
-- the codes that would have gone to a phone.
CREATE TABLE `sms_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`to_number` text NOT NULL,
	`sender` text,
	`message` text NOT NULL,
	`parts` integer NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `sms_messages_to_idx` ON `sms_messages` (`to_number`, `created_at`);
