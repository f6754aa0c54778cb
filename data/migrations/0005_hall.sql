-- 0005: the hall (選桌大廳). Tables are of two kinds, as documents 000/003 have them: 'player' (玩家桌, opened
-- by a person with their own settings) and 'system' (系統桌, formed from the quick-play queue with the
-- documents' fixed settings). Each server's quick-play queue is stored, so it survives a restart, and so
-- are the server's hall settings.

ALTER TABLE tables ADD COLUMN kind TEXT NOT NULL DEFAULT 'player' CHECK (kind IN ('player', 'system'));

-- Who waits for a 系統桌: one queue per person in a server (the primary key), in the order they came.
CREATE TABLE play_queue (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    rules        TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    locale       TEXT    NOT NULL,  -- their own language (their DMs)
    table_locale TEXT    NOT NULL,  -- the server's language (the table's channel messages)
    channel_id   INTEGER NOT NULL,  -- where they queued: the table opens there when the server set no channel
    queued_at    REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX play_queue_order ON play_queue (guild_id, rules, queued_at);

-- A server's hall settings (/mahjong setup); no row: the defaults below.
CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY,
    mahjong_channel_id  INTEGER,                      -- where 系統桌 open; NULL: where the fourth person queued
    system_turn_seconds INTEGER NOT NULL DEFAULT 5,   -- the documents' 5 s, or longer for Discord
    ai_fill_seconds     INTEGER,                      -- AI fill a 系統桌 after this wait; NULL: never
    require_password    INTEGER NOT NULL DEFAULT 0    -- 玩家桌必須設密碼, when the server asks for it
);
