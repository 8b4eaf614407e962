CREATE TABLE `time_zone_offsets` (
	`starts_at` integer PRIMARY KEY NOT NULL,
	`offset_minutes` integer NOT NULL,
	`zone` text NOT NULL
);
