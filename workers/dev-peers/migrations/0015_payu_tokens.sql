-- PayU card tokens in the PayU peer (src/payu.ts, issue 25): what PayU's Secure Form tokenizes
-- (TOK_…, single use) and the multi-use TOKC_… a first recurring/card-on-file payment (or a
-- zero-amount order) makes of it, bound to its POS and buyer. Never a full card number: the masked
-- number, the expiry and the brand PayU shows, plus the issuer answer the test card gets.
CREATE TABLE `payu_card_tokens` (
	`token` text PRIMARY KEY NOT NULL,
	`pos_id` text NOT NULL,
	-- SINGLE | MULTI (the tokenize type asked for; a TOK_ of type MULTI may become a TOKC_) | TOKC
	`kind` text NOT NULL,
	`masked` text NOT NULL,
	`exp_month` integer NOT NULL,
	`exp_year` integer NOT NULL,
	-- PayU's brand names: VISA, MASTERCARD, MAESTRO
	`brand` text NOT NULL,
	-- 000 approves; S51 etc.: the issuer declines every charge of this card (the peer's test cards).
	`issuer_answer` text NOT NULL,
	-- TOK_: set when an order used it (a single-use token works once). TOKC_: the TOK_ it came from.
	`used_by_order` text,
	`source_token` text,
	-- TOKC_: the buyer it belongs to (GET /api/v2_1/paymethods with a trusted_merchant token).
	`ext_customer_id` text,
	`email` text,
	`status` text NOT NULL DEFAULT 'ACTIVE',
	`created_at` integer NOT NULL
);
CREATE INDEX `payu_card_tokens_customer` ON `payu_card_tokens` (`pos_id`, `ext_customer_id`);

-- trusted_merchant OAuth tokens act for one buyer (email + ext_customer_id).
ALTER TABLE `payu_tokens` ADD COLUMN `ext_customer_id` text;
ALTER TABLE `payu_tokens` ADD COLUMN `email` text;

-- Faults the tests switch on: 'down' = the API answers 503 (PayU's SERVICE_NOT_AVAILABLE) until cleared.
CREATE TABLE `payu_faults` (
	`fault` text PRIMARY KEY NOT NULL
);
