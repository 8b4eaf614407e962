DROP INDEX `mahasiswa_nip_doswal_index`;--> statement-breakpoint
CREATE INDEX `mahasiswa_nip_doswal_index` ON `mahasiswa` (`NIP_doswal`,`NIM`,`dibatasi_sejak`);