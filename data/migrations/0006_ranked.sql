-- 0006: ranked play and the statistics players compare.
-- A table is casual (the default), rated (four people), or rated with its AI seats counting at a
-- fixed rating per level. Who left, who called and the 連莊 count are facts recorded when a hand or
-- match ended; places, items, the running totals and the ratings are derived from the stored matches
-- and hands, and Store.recompute (python -m data.recompute) derives them again.

ALTER TABLE tables ADD COLUMN ranking TEXT NOT NULL DEFAULT 'casual'
    CHECK (ranking IN ('casual', 'rated', 'rated_ai'));

-- The seat that ended the match by leaving (taiwan13's 中断连线), placed last.
ALTER TABLE matches ADD COLUMN leaver INTEGER;

-- Each seat's place (1-4, ties share a place), and the server and rule set for the placement stats.
ALTER TABLE match_scores ADD COLUMN place INTEGER;
ALTER TABLE match_scores ADD COLUMN guild_id INTEGER;
ALTER TABLE match_scores ADD COLUMN rules TEXT;
CREATE INDEX match_scores_player ON match_scores (guild_id, user_id, rules, place)
    WHERE user_id IS NOT NULL;

-- Per seat of a finished hand: showed a claimed meld (副露); the dealer's 連莊 count (NULL: not dealer).
ALTER TABLE hand_seats ADD COLUMN called INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_seats ADD COLUMN streak INTEGER;
-- One player's numbers read this index only: covering for the stats query.
CREATE INDEX hand_seats_stats
    ON hand_seats (guild_id, user_id, rules, delta, won, self_drew, dealt_in, called, tai, streak, hand_id)
    WHERE user_id IS NOT NULL;
-- The server-wide view: its won hands by size, AI winners included.
CREATE INDEX hand_seats_wins ON hand_seats (guild_id, rules, tai DESC, hand_id) WHERE won = 1;

-- Every 台/番 item of every won hand (user_id NULL for an AI winner), for top items and rare hands.
CREATE TABLE hand_items (
    hand_id  INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    item     TEXT    NOT NULL,
    value    INTEGER NOT NULL,
    user_id  INTEGER,
    guild_id INTEGER NOT NULL,
    rules    TEXT    NOT NULL,
    PRIMARY KEY (hand_id, item)
) WITHOUT ROWID;
CREATE INDEX hand_items_server ON hand_items (guild_id, rules, item);
CREATE INDEX hand_items_player ON hand_items (guild_id, user_id, rules, item) WHERE user_id IS NOT NULL;

-- Each person's current rating per server and rule set (openskill Plackett–Luce mu/sigma).
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    rules    TEXT    NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    shown    INTEGER NOT NULL,
    matches  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, rules, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, rules, shown DESC);

-- What each rated match did to each person's rating (shown before and after).
CREATE TABLE match_ratings (
    table_id INTEGER NOT NULL REFERENCES matches (table_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    before   INTEGER NOT NULL,
    after    INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- Each person's running totals per server and rule set, kept by finish_hand, so an all-time leaderboard
-- reads one row a player instead of every hand (periods still read the hands of the period).
CREATE TABLE player_totals (
    guild_id   INTEGER NOT NULL,
    rules      TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    matches    INTEGER NOT NULL,
    hands      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    self_draws INTEGER NOT NULL,
    deal_ins   INTEGER NOT NULL,
    best_tai   INTEGER,
    PRIMARY KEY (guild_id, rules, user_id)
) WITHOUT ROWID;
INSERT INTO player_totals
    SELECT guild_id, rules, user_id, SUM(delta), COUNT(DISTINCT table_id), COUNT(*), SUM(won), SUM(self_drew),
           SUM(dealt_in), MAX(tai)
    FROM hand_seats WHERE user_id IS NOT NULL GROUP BY guild_id, rules, user_id;

-- The same totals by hour, and each person's latest finished hand at each table: a period leaderboard
-- ("this week": the last 7 × 24 hours) sums the whole hours of its period, reads the hands of its first,
-- partial hour, and counts the tables with a hand in the period, instead of adding up every hand.
CREATE TABLE player_hours (
    guild_id   INTEGER NOT NULL,
    hour       INTEGER NOT NULL,  -- floor(finished_at / 3600)
    rules      TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    hands      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    self_draws INTEGER NOT NULL,
    deal_ins   INTEGER NOT NULL,
    best_tai   INTEGER,
    PRIMARY KEY (guild_id, hour, rules, user_id)
) WITHOUT ROWID;
INSERT INTO player_hours
    SELECT guild_id, CAST(finished_at / 3600 AS INTEGER), rules, user_id, SUM(delta), COUNT(*), SUM(won),
           SUM(self_drew), SUM(dealt_in), MAX(tai)
    FROM hand_seats WHERE user_id IS NOT NULL
    GROUP BY guild_id, CAST(finished_at / 3600 AS INTEGER), rules, user_id;
CREATE TABLE player_tables (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    table_id INTEGER NOT NULL,
    rules    TEXT    NOT NULL,
    last_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, table_id)
) WITHOUT ROWID;
CREATE INDEX player_tables_recent ON player_tables (guild_id, last_at, rules, user_id);
INSERT INTO player_tables
    SELECT guild_id, user_id, table_id, rules, MAX(finished_at) FROM hand_seats WHERE user_id IS NOT NULL
    GROUP BY guild_id, user_id, table_id;
-- the hands of a period's first, partial hour
CREATE INDEX hand_seats_recent
    ON hand_seats (guild_id, finished_at, rules, user_id, delta, won, self_drew, dealt_in, tai)
    WHERE user_id IS NOT NULL;

-- A server's counts for its view (/mahjong server): hands and wins per rule set, and how often each item
-- was made (and the latest hand that made it); kept by finish_hand like player_totals.
CREATE TABLE server_totals (
    guild_id INTEGER NOT NULL,
    rules    TEXT    NOT NULL,
    hands    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, rules)
) WITHOUT ROWID;
CREATE TABLE item_totals (
    guild_id  INTEGER NOT NULL,
    rules     TEXT    NOT NULL,
    item      TEXT    NOT NULL,
    hands     INTEGER NOT NULL,
    last_hand INTEGER NOT NULL,
    PRIMARY KEY (guild_id, rules, item)
) WITHOUT ROWID;

-- Existing history: each won hand's items and each dealer's 連莊 count, from the stored results and headers.
INSERT INTO hand_items (hand_id, item, value, user_id, guild_id, rules)
    SELECT h.id, json_extract(j.value, '$[0]'), SUM(json_extract(j.value, '$[1]')), s.user_id, t.guild_id, t.rules
    FROM hands h JOIN tables t ON t.id = h.table_id JOIN hand_seats s ON s.hand_id = h.id AND s.seat = h.winner,
         json_each(h.result, '$.items') j
    WHERE h.winner IS NOT NULL AND json_valid(h.result) AND json_type(h.result, '$.items') = 'array'
    GROUP BY h.id, json_extract(j.value, '$[0]');
UPDATE hand_seats SET streak = (
    SELECT COALESCE(json_extract(h.header, '$.dealer_streak'), 0) FROM hands h
    WHERE h.id = hand_seats.hand_id AND json_valid(h.header) AND json_extract(h.header, '$.dealer') = hand_seats.seat);
INSERT INTO server_totals
    SELECT t.guild_id, t.rules, COUNT(*), SUM(h.winner IS NOT NULL) FROM hands h JOIN tables t ON t.id = h.table_id
    WHERE h.finished_at IS NOT NULL GROUP BY t.guild_id, t.rules;
INSERT INTO item_totals
    SELECT guild_id, rules, item, COUNT(*), MAX(hand_id) FROM hand_items GROUP BY guild_id, rules, item;

-- Existing history: placements from the stored final scores (no leaver was recorded before this).
UPDATE match_scores SET
    guild_id = (SELECT guild_id FROM tables WHERE id = match_scores.table_id),
    rules = (SELECT rules FROM tables WHERE id = match_scores.table_id),
    place = 1 + (SELECT COUNT(*) FROM match_scores o WHERE o.table_id = match_scores.table_id
                 AND o.score > match_scores.score);
