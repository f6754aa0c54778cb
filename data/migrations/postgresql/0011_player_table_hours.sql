-- 0011 for PostgreSQL: each person's count of tables by the hour of their latest hand there (as
-- ../0011_player_table_hours.sql).
CREATE TABLE player_table_hours (
    guild_id BIGINT  NOT NULL,
    hour     INTEGER NOT NULL,  -- floor(player_tables.last_at / 3600)
    rules    TEXT COLLATE "C" NOT NULL,
    user_id  BIGINT  NOT NULL,
    matches  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, hour, rules, user_id)
);
INSERT INTO player_table_hours (guild_id, hour, rules, user_id, matches)
    SELECT guild_id, CAST(FLOOR(last_at / 3600) AS INTEGER), rules, user_id, COUNT(*) FROM player_tables
    GROUP BY guild_id, CAST(FLOOR(last_at / 3600) AS INTEGER), rules, user_id;
