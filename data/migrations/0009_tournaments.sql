-- 0009: tournaments (league nights, issue 42). A tournament is registered, then played round by round
-- (table/tournament.py decides the seating, the keys and the standings): ``tournaments`` holds what the
-- organiser chose and its secret key (never shown before table/tournament.py's key_may_show allows);
-- ``tournament_entrants`` who registered, checked in or dropped; ``tournament_rounds`` each round's byes;
-- ``tournament_tables`` each round's tables: who sits where (the tournament's seat order, null for an AI
-- seat), the 系統桌 that plays it, and its final points once recorded.

CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,           -- where it registers and where its tables open
    message_id   INTEGER,                    -- the registration message, edited as people join
    organiser_id INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    rules        TEXT    NOT NULL,
    rounds       INTEGER NOT NULL,
    hands        INTEGER,                    -- hands a table plays; NULL: one 東風圈
    duplicate    INTEGER NOT NULL DEFAULT 0,
    ai_fill      INTEGER NOT NULL DEFAULT 1,
    max_entrants INTEGER,                    -- NULL: no limit
    starts_at    REAL,                       -- unix time announced; the organiser starts it
    locale       TEXT    NOT NULL,
    secret_key   TEXT    NOT NULL,           -- hex; shown only once key_may_show allows
    phase        TEXT    NOT NULL DEFAULT 'registration'
                 CHECK (phase IN ('registration', 'playing', 'paused', 'over', 'cancelled')),
    created_at   REAL    NOT NULL
);
CREATE INDEX tournaments_running ON tournaments (guild_id, phase);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    locale        TEXT    NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'registered' CHECK (status IN ('registered', 'checked_in', 'dropped')),
    dropped_round INTEGER,                   -- dropped after playing this many rounds (0: never started)
    joined_at     REAL    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    byes          TEXT    NOT NULL DEFAULT '[]',  -- JSON list of the entrants who sit this round out
    PRIMARY KEY (tournament_id, round)
) WITHOUT ROWID;

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    seats         TEXT    NOT NULL,          -- JSON list of four entrant ids (null: an AI seat), tournament order
    table_id      INTEGER REFERENCES tables (id) ON DELETE SET NULL,  -- NULL until its 系統桌 is stored
    points        TEXT,                      -- JSON final points, tournament order; NULL until recorded
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE UNIQUE INDEX tournament_tables_table ON tournament_tables (table_id);
