-- PayU Marketplace in the PayU peer (src/payu.ts): the marketplace POS (beside the plain POS of
-- PEER_PAYU_* in wrangler.toml), its submerchants and their balances, the marketplace's fee
-- balance, refunds, and the card data of each order's card payment.

-- POSes the peer knows besides PEER_PAYU_*. The one row: the development marketplace POS (the
-- platform's own PayU account). Its keys are development values, like PEER_PAYU_*.
CREATE TABLE `payu_pos` (
	`pos_id` text PRIMARY KEY NOT NULL,
	`client_id` text NOT NULL,
	`client_secret` text NOT NULL,
	`second_key` text NOT NULL,
	-- 1: a marketplace POS (may send shoppingCarts, has submerchants); its MARKETPLACE_ID in boarding links.
	`marketplace` integer NOT NULL DEFAULT 0,
	`partner_id` text
);
CREATE UNIQUE INDEX `payu_pos_client_unique` ON `payu_pos` (`client_id`);
INSERT INTO `payu_pos` (`pos_id`, `client_id`, `client_secret`, `second_key`, `marketplace`, `partner_id`)
VALUES ('341009', '341009', 'coursefront_dev_payu_marketplace_secret_0', 'coursefront_dev_payu_marketplace_key_0000', 1, 'coursefront-dev');

-- Submerchants of a marketplace POS, under the marketplace's own name for them (extCustomerId).
CREATE TABLE `payu_submerchants` (
	`pos_id` text NOT NULL,
	`ext_customer_id` text NOT NULL,
	`name` text NOT NULL,
	`tax_id` text NOT NULL,
	-- verified | pending | denied (the API shows Verified, or NotVerified for the other two)
	`status` text NOT NULL,
	-- Comma-separated currencies the verification covers.
	`currencies` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY (`pos_id`, `ext_customer_id`)
);

-- Money inside PayU per POS: `account` is 'marketplace' (the fees the marketplace earned) or
-- 'sub:{extCustomerId}' (a submerchant's share of its sales), in minor units per currency.
CREATE TABLE `payu_balances` (
	`pos_id` text NOT NULL,
	`account` text NOT NULL,
	`currency` text NOT NULL,
	`amount` integer NOT NULL,
	PRIMARY KEY (`pos_id`, `account`, `currency`)
);

-- Refunds (POST /api/v2_1/orders/{orderId}/refunds). `fee_amount`: the part of the refund taken
-- back from the marketplace's fee (marketplace orders), the rest from the submerchant.
CREATE TABLE `payu_refunds` (
	`refund_id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`ext_refund_id` text,
	`ext_customer_id` text,
	`amount` integer NOT NULL,
	`fee_amount` integer NOT NULL DEFAULT 0,
	`currency` text NOT NULL,
	`description` text NOT NULL,
	`status` text NOT NULL,
	-- The request as sent: PayU answers a repeat of exactly the same request with the first refund.
	`request_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`status_at` integer NOT NULL
);
CREATE UNIQUE INDEX `payu_refunds_ext_unique` ON `payu_refunds` (`order_id`, `ext_refund_id`);
CREATE UNIQUE INDEX `payu_refunds_request_unique` ON `payu_refunds` (`order_id`, `request_key`);

-- The card payment of an order (JSON: card data as GET …/transactions shows it), null when not paid by card.
ALTER TABLE `payu_orders` ADD COLUMN `card` text;
-- 1 once a marketplace order's split reached the balances (exactly once, on COMPLETED).
ALTER TABLE `payu_orders` ADD COLUMN `split_settled` integer NOT NULL DEFAULT 0;
