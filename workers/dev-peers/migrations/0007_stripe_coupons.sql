-- Stripe peer: coupons (POST /v1/coupons), applied to a Checkout Session with `discounts[0][coupon]`.
CREATE TABLE `stripe_coupons` (
	`id` text PRIMARY KEY NOT NULL,
	`object` text NOT NULL,
	`idempotency_key` text,
	`created_at` integer NOT NULL
);
CREATE UNIQUE INDEX `stripe_coupons_idempotency_unique` ON `stripe_coupons` (`idempotency_key`);
