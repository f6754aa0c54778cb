-- 0012 for PostgreSQL: a tournament's turn and claim times, house rules and threads; the organiser role
-- (as ../0012_tournament_tables.sql).

ALTER TABLE tournaments ADD COLUMN turn_seconds INTEGER;
ALTER TABLE tournaments ADD COLUMN claim_seconds INTEGER;
ALTER TABLE tournaments ADD COLUMN preset TEXT NOT NULL DEFAULT 'document';
ALTER TABLE tournaments ADD COLUMN house_rules TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tournaments ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_tables ADD COLUMN thread_id BIGINT;
ALTER TABLE guild_settings ADD COLUMN organiser_role_id BIGINT;
