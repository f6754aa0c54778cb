-- 0015: a hand's writes refused from a process that no longer holds its table's lease (PostgreSQL only:
-- see postgresql/0015_lease_fence.sql). On SQLite one process owns every table and ``table_leases`` stays
-- empty, so there is nothing to fence; the file keeps both databases' migrations numbered alike.

SELECT 1;
