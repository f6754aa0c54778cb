-- 0007: which bot process runs each table, when several processes share one database (data/leases.py).
-- A row is a lease: the owner's process name and when the lease runs out unless renewed; ``generation``
-- counts the owners the table has had (a takeover adds one). On SQLite one process owns every table and
-- no row is ever written here: the table exists so both databases keep the same numbered schema.

CREATE TABLE table_leases (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner      TEXT    NOT NULL,
    expires_at REAL    NOT NULL,
    generation INTEGER NOT NULL DEFAULT 1
) WITHOUT ROWID;
CREATE INDEX table_leases_expiry ON table_leases (expires_at);
