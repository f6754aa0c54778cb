-- 0008 for PostgreSQL: a delayed table's spectators and its spectator thread (as ../0008_spectators.sql).

CREATE TABLE spectator_threads (
    table_id  BIGINT  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    thread_id BIGINT  NOT NULL,
    revealed  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE spectators (
    table_id BIGINT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL,
    locale   TEXT   NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
