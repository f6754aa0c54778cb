-- 0006 for PostgreSQL: ranked play and the statistics players compare, as ../0006_ranked.sql: the same
-- columns, tables and indexes (Discord ids BIGINT, times and ratings DOUBLE PRECISION), and the same
-- back-fill of existing history. SQLite's json_valid() has no twin in PostgreSQL 15: a text that does not
-- parse as JSON reads as NULL through the temporary function below, dropped at the end.
--
-- Text that is a key or orders results (rule sets, item names, settings' names) is COLLATE "C": byte
-- order, as SQLite's BINARY, whatever collation the operator's database was created with (en-US puts
-- 'a' before 'B'). Ties then break the same way on both databases, and data.copy, which checks each
-- table in key order, finds the same order on both.

ALTER TABLE bot_settings ALTER COLUMN key TYPE TEXT COLLATE "C";
ALTER TABLE hand_seats ALTER COLUMN rules TYPE TEXT COLLATE "C";

ALTER TABLE tables ADD COLUMN ranking TEXT NOT NULL DEFAULT 'casual'
    CHECK (ranking IN ('casual', 'rated', 'rated_ai'));

ALTER TABLE matches ADD COLUMN leaver INTEGER;

ALTER TABLE match_scores ADD COLUMN place INTEGER;
ALTER TABLE match_scores ADD COLUMN guild_id BIGINT;
ALTER TABLE match_scores ADD COLUMN rules TEXT COLLATE "C";
CREATE INDEX match_scores_player ON match_scores (guild_id, user_id, rules, place)
    WHERE user_id IS NOT NULL;

ALTER TABLE hand_seats ADD COLUMN called INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_seats ADD COLUMN streak INTEGER;
CREATE INDEX hand_seats_stats
    ON hand_seats (guild_id, user_id, rules) INCLUDE (delta, won, self_drew, dealt_in, called, tai, streak, hand_id)
    WHERE user_id IS NOT NULL;
CREATE INDEX hand_seats_wins ON hand_seats (guild_id, rules, tai DESC, hand_id) WHERE won = 1;

CREATE TABLE hand_items (
    hand_id  BIGINT  NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    item     TEXT COLLATE "C" NOT NULL,
    value    INTEGER NOT NULL,
    user_id  BIGINT,
    guild_id BIGINT  NOT NULL,
    rules    TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (hand_id, item)
);
CREATE INDEX hand_items_server ON hand_items (guild_id, rules, item);
CREATE INDEX hand_items_player ON hand_items (guild_id, user_id, rules, item) WHERE user_id IS NOT NULL;

CREATE TABLE ratings (
    guild_id BIGINT  NOT NULL,
    rules    TEXT COLLATE "C" NOT NULL,
    user_id  BIGINT  NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    shown    INTEGER NOT NULL,
    matches  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, rules, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, rules, shown DESC);

CREATE TABLE match_ratings (
    table_id BIGINT  NOT NULL REFERENCES matches (table_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  BIGINT  NOT NULL,
    before   INTEGER NOT NULL,
    after    INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE player_totals (
    guild_id   BIGINT  NOT NULL,
    rules      TEXT COLLATE "C" NOT NULL,
    user_id    BIGINT  NOT NULL,
    points     INTEGER NOT NULL,
    matches    INTEGER NOT NULL,
    hands      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    self_draws INTEGER NOT NULL,
    deal_ins   INTEGER NOT NULL,
    best_tai   INTEGER,
    PRIMARY KEY (guild_id, rules, user_id)
);
INSERT INTO player_totals (guild_id, rules, user_id, points, matches, hands, wins, self_draws, deal_ins, best_tai)
    SELECT guild_id, rules, user_id, SUM(delta), COUNT(DISTINCT table_id), COUNT(*), SUM(won), SUM(self_drew),
           SUM(dealt_in), MAX(tai)
    FROM hand_seats WHERE user_id IS NOT NULL GROUP BY guild_id, rules, user_id;

CREATE TABLE player_hours (
    guild_id   BIGINT  NOT NULL,
    hour       INTEGER NOT NULL,  -- floor(finished_at / 3600)
    rules      TEXT COLLATE "C" NOT NULL,
    user_id    BIGINT  NOT NULL,
    points     INTEGER NOT NULL,
    hands      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    self_draws INTEGER NOT NULL,
    deal_ins   INTEGER NOT NULL,
    best_tai   INTEGER,
    PRIMARY KEY (guild_id, hour, rules, user_id)
);
INSERT INTO player_hours (guild_id, hour, rules, user_id, points, hands, wins, self_draws, deal_ins, best_tai)
    SELECT guild_id, CAST(FLOOR(finished_at / 3600) AS INTEGER), rules, user_id, SUM(delta), COUNT(*), SUM(won),
           SUM(self_drew), SUM(dealt_in), MAX(tai)
    FROM hand_seats WHERE user_id IS NOT NULL
    GROUP BY guild_id, CAST(FLOOR(finished_at / 3600) AS INTEGER), rules, user_id;
CREATE TABLE player_tables (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    table_id BIGINT NOT NULL,
    rules    TEXT COLLATE "C" NOT NULL,
    last_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, table_id)
);
CREATE INDEX player_tables_recent ON player_tables (guild_id, last_at, rules, user_id);
INSERT INTO player_tables (guild_id, user_id, table_id, rules, last_at)
    SELECT guild_id, user_id, table_id, MIN(rules), MAX(finished_at) FROM hand_seats WHERE user_id IS NOT NULL
    GROUP BY guild_id, user_id, table_id;
CREATE INDEX hand_seats_recent
    ON hand_seats (guild_id, finished_at, rules, user_id) INCLUDE (delta, won, self_drew, dealt_in, tai)
    WHERE user_id IS NOT NULL;

CREATE TABLE server_totals (
    guild_id BIGINT  NOT NULL,
    rules    TEXT COLLATE "C" NOT NULL,
    hands    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, rules)
);
CREATE TABLE item_totals (
    guild_id  BIGINT  NOT NULL,
    rules     TEXT COLLATE "C" NOT NULL,
    item      TEXT COLLATE "C" NOT NULL,
    hands     INTEGER NOT NULL,
    last_hand BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, rules, item)
);

CREATE FUNCTION pg_temp.json_or_null(source TEXT) RETURNS JSONB LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN source::jsonb;
EXCEPTION WHEN others THEN
    RETURN NULL;
END;
$$;

INSERT INTO hand_items (hand_id, item, value, user_id, guild_id, rules)
    SELECT h.id, j.value ->> 0, SUM(CAST(j.value ->> 1 AS NUMERIC)), s.user_id, t.guild_id, t.rules
    FROM hands h JOIN tables t ON t.id = h.table_id JOIN hand_seats s ON s.hand_id = h.id AND s.seat = h.winner,
         jsonb_array_elements(
             CASE WHEN jsonb_typeof(pg_temp.json_or_null(h.result) -> 'items') = 'array'
                  THEN pg_temp.json_or_null(h.result) -> 'items' ELSE '[]'::jsonb END) j
    WHERE h.winner IS NOT NULL
    GROUP BY h.id, j.value ->> 0, s.user_id, t.guild_id, t.rules;
UPDATE hand_seats SET streak = (
    SELECT COALESCE(CAST(CAST(pg_temp.json_or_null(h.header) ->> 'dealer_streak' AS NUMERIC) AS INTEGER), 0)
    FROM hands h
    WHERE h.id = hand_seats.hand_id AND pg_temp.json_or_null(h.header) -> 'dealer' = to_jsonb(hand_seats.seat));
INSERT INTO server_totals (guild_id, rules, hands, wins)
    SELECT t.guild_id, t.rules, COUNT(*), COUNT(h.winner) FROM hands h JOIN tables t ON t.id = h.table_id
    WHERE h.finished_at IS NOT NULL GROUP BY t.guild_id, t.rules;
INSERT INTO item_totals (guild_id, rules, item, hands, last_hand)
    SELECT guild_id, rules, item, COUNT(*), MAX(hand_id) FROM hand_items GROUP BY guild_id, rules, item;

DROP FUNCTION pg_temp.json_or_null(TEXT);

UPDATE match_scores SET
    guild_id = (SELECT guild_id FROM tables WHERE id = match_scores.table_id),
    rules = (SELECT rules FROM tables WHERE id = match_scores.table_id),
    place = 1 + (SELECT COUNT(*) FROM match_scores o WHERE o.table_id = match_scores.table_id
                 AND o.score > match_scores.score);
