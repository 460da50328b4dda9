-- GUS BIR 1.1 and VIES peers (src/gus.ts, src/vies.ts): the registers' fixture companies, BIR
-- sessions, and each register's switches (down / MTOM answers). Fixtures are invented companies.
CREATE TABLE `gus_companies` (
	`nip` text PRIMARY KEY NOT NULL,
	`regon` text NOT NULL,
	`name` text NOT NULL,
	`voivodeship` text DEFAULT '' NOT NULL,
	`county` text DEFAULT '' NOT NULL,
	`commune` text DEFAULT '' NOT NULL,
	`place` text NOT NULL,
	`postal_code` text NOT NULL,
	`post_office` text DEFAULT '' NOT NULL,
	`street` text DEFAULT '' NOT NULL,
	`building` text DEFAULT '' NOT NULL,
	`unit` text DEFAULT '' NOT NULL,
	-- P: a legal person, F: a natural person's business (the fixtures are all P).
	`type` text DEFAULT 'P' NOT NULL,
	`silos_id` text DEFAULT '6' NOT NULL,
	`ended_on` text DEFAULT '' NOT NULL
);
CREATE TABLE `gus_sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`api_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`closed_at` integer
);
CREATE TABLE `vies_companies` (
	`country_code` text NOT NULL,
	`vat_number` text NOT NULL,
	`name` text NOT NULL,
	`address` text NOT NULL,
	PRIMARY KEY (`country_code`, `vat_number`)
);
CREATE TABLE `company_register_switches` (
	`register` text PRIMARY KEY NOT NULL,
	`down` integer DEFAULT 0 NOT NULL,
	-- VIES: the faultstring answered while down (MS_UNAVAILABLE, SERVICE_UNAVAILABLE, TIMEOUT, …).
	`fault` text DEFAULT '' NOT NULL,
	-- GUS: answer MTOM (multipart/related) like the real service; 0 = plain SOAP 1.2.
	`mtom` integer DEFAULT 1 NOT NULL
);
INSERT INTO `gus_companies` (`nip`, `regon`, `name`, `voivodeship`, `county`, `commune`, `place`, `postal_code`, `post_office`, `street`, `building`, `unit`) VALUES
	('5260250274', '012345675', 'PRZYKŁADOWA AKADEMIA KURSÓW SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', 'MAZOWIECKIE', 'Warszawa', 'Śródmieście', 'Warszawa', '00-916', 'Warszawa', 'ul. Testowa', '12', ''),
	('1234563218', '123456785', 'WZOROWE SZKOLENIA SPÓŁKA AKCYJNA', 'MAŁOPOLSKIE', 'Kraków', 'Kraków-Krowodrza', 'Kraków', '30-001', 'Kraków', 'ul. Fikcyjna', '7', '3'),
	('7680002466', '590096454', 'SPÓŁDZIELNIA KURSÓW WIEJSKICH', 'ŁÓDZKIE', 'tomaszowski', 'Lubochnia', 'Dąbrowa', '97-217', 'Lubochnia', '', '41', '');
INSERT INTO `vies_companies` (`country_code`, `vat_number`, `name`, `address`) VALUES
	('DE', '100000001', 'Beispiel Lernplattform GmbH', 'Musterstraße 5' || char(10) || '10115 Berlin'),
	('PL', '5260250274', 'PRZYKŁADOWA AKADEMIA KURSÓW SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', 'UL. TESTOWA 12' || char(10) || '00-916 WARSZAWA'),
	('FR', '00000000190', '---', '---');
