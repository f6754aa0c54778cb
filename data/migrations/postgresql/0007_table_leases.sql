-- 0007 for PostgreSQL: table ownership by lease between bot processes (as ../0007_table_leases.sql;
-- data/leases.py says why a row with an expiry rather than an advisory lock).

CREATE TABLE table_leases (
    table_id   BIGINT  PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner      TEXT    NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    generation INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX table_leases_expiry ON table_leases (expires_at);
