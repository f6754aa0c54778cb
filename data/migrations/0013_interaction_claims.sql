-- 0013: which bot process answers an interaction that Discord delivered to several of them (data/claims.py):
-- every session identified with shard 0 hears every DM click, and a process that runs a standby shard-0
-- session (so that DM play goes on when shard 0's process dies) hears them beside shard 0's own process.
-- The first process to store the interaction's id answers it. On SQLite one process hears every
-- interaction and no row is ever written here: the table exists so both databases keep the same schema.

CREATE TABLE interaction_claims (
    interaction_id INTEGER PRIMARY KEY,
    owner          TEXT    NOT NULL,
    claimed_at     REAL    NOT NULL
) WITHOUT ROWID;
CREATE INDEX interaction_claims_age ON interaction_claims (claimed_at);
