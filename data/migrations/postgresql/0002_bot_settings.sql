-- 0002 for PostgreSQL: the bot's own small facts, by name (as ../0002_bot_settings.sql).

CREATE TABLE bot_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
