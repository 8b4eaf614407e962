-- Issue 28: a lecturer's statistics and sort=risk from summaries. The table and the new
-- column are filled, and their triggers installed, by the migration runner's refill of the
-- summaries (src/db/summaries.ts), as for the other summary tables.
CREATE TABLE `lecturer_latest_levels` (
	`NIP` text NOT NULL,
	`tingkat_stres` text NOT NULL,
	`tingkat_motivasi` text NOT NULL,
	`students` integer NOT NULL,
	PRIMARY KEY(`NIP`, `tingkat_stres`, `tingkat_motivasi`)
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `latest_skrining` ADD `NIP` text;--> statement-breakpoint
CREATE INDEX `latest_skrining_nip_tanggal_index` ON `latest_skrining` (`NIP`,"tanggal_skrining" DESC,`NIM`,`early_warning`,`score_stress`);