-- Each person's count of tables by the hour their latest hand there ended, beside player_tables: a
-- period leaderboard ("this month") sums the whole hours of its period here and counts only the tables
-- of its first, partial hour in player_tables, instead of counting every table of the period (a busy
-- server's month is 100,000 rows of player_tables). Kept by finish_hand; a table moves from hour to
-- hour as its hands end.
CREATE TABLE player_table_hours (
    guild_id INTEGER NOT NULL,
    hour     INTEGER NOT NULL,  -- floor(player_tables.last_at / 3600)
    rules    TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    matches  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, hour, rules, user_id)
) WITHOUT ROWID;
INSERT INTO player_table_hours
    SELECT guild_id, CAST(last_at / 3600 AS INTEGER), rules, user_id, COUNT(*) FROM player_tables
    GROUP BY guild_id, CAST(last_at / 3600 AS INTEGER), rules, user_id;
