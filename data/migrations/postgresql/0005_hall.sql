-- 0005 for PostgreSQL: the hall (選桌大廳), as ../0005_hall.sql: the kind of each table, each server's
-- quick-play queue and its hall settings.

ALTER TABLE tables ADD COLUMN kind TEXT NOT NULL DEFAULT 'player' CHECK (kind IN ('player', 'system'));

CREATE TABLE play_queue (
    guild_id     BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    rules        TEXT   NOT NULL,
    name         TEXT   NOT NULL,
    locale       TEXT   NOT NULL,
    table_locale TEXT   NOT NULL,
    channel_id   BIGINT NOT NULL,
    queued_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX play_queue_order ON play_queue (guild_id, rules, queued_at);

CREATE TABLE guild_settings (
    guild_id            BIGINT  PRIMARY KEY,
    mahjong_channel_id  BIGINT,
    system_turn_seconds INTEGER NOT NULL DEFAULT 5,
    ai_fill_seconds     INTEGER,
    require_password    INTEGER NOT NULL DEFAULT 0
);
