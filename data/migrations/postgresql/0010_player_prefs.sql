-- 0010 for PostgreSQL: each person's own preferences, global across servers (as ../0010_player_prefs.sql).

CREATE TABLE player_prefs (
    user_id      BIGINT PRIMARY KEY,
    nudge        INTEGER NOT NULL DEFAULT 1,
    theme        TEXT    NOT NULL DEFAULT 'felt' CHECK (theme IN ('felt', 'ocean', 'sakura', 'contrast')),
    auto_win     INTEGER NOT NULL DEFAULT 0,
    no_calls     INTEGER NOT NULL DEFAULT 0,
    auto_discard INTEGER NOT NULL DEFAULT 0
);
