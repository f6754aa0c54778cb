-- 0001: tables and their seats, the match, every hand (engine header + action log), results.
-- Times are Unix seconds (REAL); Discord ids are INTEGER snowflakes; JSON is stored as TEXT.

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    rules            TEXT    NOT NULL,
    rounds           INTEGER NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    password_hash    TEXT,
    phase            TEXT    NOT NULL DEFAULT 'lobby'
                             CHECK (phase IN ('lobby', 'playing', 'over', 'closed')),
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    created_at       REAL    NOT NULL
);
-- Tables to resume after a restart, and the one table a channel may hold.
CREATE INDEX tables_unfinished ON tables (channel_id) WHERE phase IN ('lobby', 'playing');
CREATE INDEX tables_guild ON tables (guild_id);

-- Who sits where now; user_id NULL is an AI seat.
CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id  INTEGER,
    name     TEXT    NOT NULL,
    ai_level TEXT,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- One match per table: the engine's match header, then the final score of each seat.
CREATE TABLE matches (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    header      TEXT    NOT NULL,
    started_at  REAL    NOT NULL,
    finished_at REAL
);
CREATE INDEX matches_finished ON matches (finished_at) WHERE finished_at IS NOT NULL;

-- Standings as they were when the match ended (names copied: history must not change later).
CREATE TABLE match_scores (
    table_id INTEGER NOT NULL REFERENCES matches (table_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,
    name     TEXT    NOT NULL,
    score    INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

-- Every hand: the engine header and, once over, its result (the engine HandResult as JSON).
CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    hand_no     INTEGER NOT NULL,
    header      TEXT    NOT NULL,
    deadline    REAL,
    started_at  REAL    NOT NULL,
    finished_at REAL,
    result      TEXT,
    winner      INTEGER,
    loser       INTEGER,
    self_drawn  INTEGER NOT NULL DEFAULT 0,
    total       INTEGER,
    UNIQUE (table_id, hand_no)
);

-- The action log the engine replays a hand from, in notation ("0 discard 5m"), with the hand's
-- deadline after each move. Storing a move is one INSERT; the trigger copies its deadline to the
-- hand within the same statement, so the two can never disagree and a move costs one round trip.
CREATE TABLE moves (
    hand_id  INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    move_no  INTEGER NOT NULL,
    action   TEXT    NOT NULL,
    deadline REAL,
    PRIMARY KEY (hand_id, move_no)
) WITHOUT ROWID;
CREATE TRIGGER moves_set_deadline AFTER INSERT ON moves
BEGIN
    UPDATE hands SET deadline = NEW.deadline WHERE id = NEW.hand_id;
END;

-- One row per seat of each finished hand. guild_id, rules, table_id and finished_at are copied
-- from the table and hand so that leaderboards read one table through one index.
CREATE TABLE hand_seats (
    hand_id     INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,
    name        TEXT    NOT NULL,
    delta       INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    self_drew   INTEGER NOT NULL,
    dealt_in    INTEGER NOT NULL,
    tai         INTEGER,
    guild_id    INTEGER NOT NULL,
    rules       TEXT    NOT NULL,
    table_id    INTEGER NOT NULL,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (hand_id, seat)
);
-- Covering: a leaderboard reads only this index, in user order, never the table.
CREATE INDEX hand_seats_player
    ON hand_seats (guild_id, user_id, rules, finished_at, delta, won, self_drew, dealt_in, tai, table_id)
    WHERE user_id IS NOT NULL;

-- Each player's latest name in each server, kept by finish_hand: what leaderboards show.
CREATE TABLE player_names (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
