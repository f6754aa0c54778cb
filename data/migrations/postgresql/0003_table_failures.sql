-- 0003 for PostgreSQL: tables that could not be restored after a restart (as ../0003_table_failures.sql).

CREATE TABLE table_failures (
    table_id  BIGINT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    reason    TEXT   NOT NULL,
    failed_at DOUBLE PRECISION NOT NULL
);
