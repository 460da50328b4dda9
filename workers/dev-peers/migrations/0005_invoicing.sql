-- Invoicing system peers (src/fakturownia.ts, src/infakt.ts, src/ifirma.ts; shared store in
-- src/invoicing-peer.ts): the accounts they accept, the invoices issued, and injected failures.
CREATE TABLE `invoicing_accounts` (
	`system` text NOT NULL,
	-- Fakturownia: the account (subdomain); inFakt: the API key itself; iFirma: the user login.
	`login` text NOT NULL,
	-- Fakturownia: the API token; inFakt: the API key; iFirma: the "faktura" key in hex.
	`secret` text NOT NULL,
	PRIMARY KEY (`system`, `login`)
);
-- Development accounts (the values to type on /home/integrations in development).
INSERT INTO `invoicing_accounts` (`system`, `login`, `secret`) VALUES
	('fakturownia', 'coursefront-dev', 'coursefront_dev_fakturownia_token_0000'),
	('infakt', 'coursefront_dev_infakt_api_key_000000', 'coursefront_dev_infakt_api_key_000000'),
	('ifirma', 'coursefront-dev', 'C0FFEE0123456789');
CREATE TABLE `invoicing_invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`system` text NOT NULL,
	`account` text NOT NULL,
	-- Fakturownia oid, inFakt notes, iFirma Uwagi: where the caller put its reference.
	`reference` text,
	`number` text NOT NULL,
	`token` text NOT NULL,
	-- The invoice as sent (JSON).
	`body` text NOT NULL,
	`gross_total` integer NOT NULL,
	`issue_date` text NOT NULL,
	`created_at` integer NOT NULL
);
CREATE INDEX `invoicing_invoices_account_idx` ON `invoicing_invoices` (`system`, `account`, `reference`);
CREATE TABLE `invoicing_faults` (
	`system` text PRIMARY KEY NOT NULL,
	-- Creates still to fail with `status` (the system's own error answer).
	`remaining` integer NOT NULL,
	`status` integer NOT NULL
);
