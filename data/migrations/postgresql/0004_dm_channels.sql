-- 0004 for PostgreSQL: each person's DM channel with the bot, once opened (as ../0004_dm_channels.sql).

CREATE TABLE dm_channels (
    user_id    BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL
);
