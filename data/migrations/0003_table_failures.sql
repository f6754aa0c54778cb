-- 0003: tables that could not be restored after a restart. The table row's phase becomes 'closed' (its
-- seats are free and it is never restored again); the reason is kept here, and its match and moves stay
-- where they were, for whoever inspects the failure.

CREATE TABLE table_failures (
    table_id  INTEGER PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    reason    TEXT    NOT NULL,
    failed_at REAL    NOT NULL
);
