-- 0008: a delayed table's spectators (cogs/mahjong/watch.py), kept across a restart. Each finished hand is
-- posted face up in one spectator thread per table, a private thread the bot opened off the table's
-- channel, whose members are the spectators: ``spectator_threads`` keeps the thread and how many hands it
-- has shown (the next to post after a restart), ``spectators`` who watches and in which language.

CREATE TABLE spectator_threads (
    table_id  INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    thread_id INTEGER NOT NULL,
    revealed  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE spectators (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    locale   TEXT    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
