-- Browser sessions of a server with an access token (ASSUMEPROBE_TOKEN): a login exchanges the
-- token for a random session id kept in an HttpOnly cookie. Only the id's SHA-256 is stored, so a
-- copy of the database holds no usable cookie; `token_fingerprint` ties a session to the token it
-- was made with, so changing ASSUMEPROBE_TOKEN ends every session made with the old one.
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`token_fingerprint` text NOT NULL,
	`reviewer` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_expires` ON `sessions` (`expires_at`);
