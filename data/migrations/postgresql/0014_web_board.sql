-- 0014 for PostgreSQL: a server's leaderboard on the web table (as ../0014_web_board.sql).

ALTER TABLE guild_settings ADD COLUMN web_board INTEGER NOT NULL DEFAULT 0;
