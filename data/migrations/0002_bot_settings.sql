-- 0002: the bot's own small facts, by name (e.g. the fingerprint of the slash commands last synced,
-- so a restart does not re-sync an unchanged command tree against Discord's daily limit).

CREATE TABLE bot_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
