-- 0015 for PostgreSQL: a fence on the lease (data/leases.py). A process that lost its table's lease
-- without knowing it yet (its renewal came late, another process took the table over) must not store
-- another move: the new owner replays the table from what was stored when it claimed it, and a move
-- stored after that would be missing from its game (and refused when it stores its own move of that
-- number). Every write of a hand goes through ``hands``: starting and finishing it, its deadline, and each
-- move (the moves trigger sets the hand's deadline), so this one trigger fences them all.
--
-- The writing process names itself in the session setting ``mahjong.owner`` (data/postgres.py,
-- PgDriver.fence); a connection that names nobody (one process alone, the tools) is not fenced, nor is a
-- table without a lease. A write holds the table's advisory lock (27498, table id modulo 2^31) shared until it
-- commits, and a claim of the lease holds it exclusively (data/leases.py): a takeover's claim waits for a
-- write under way to commit, and a write that comes after the claim reads the new owner (each statement
-- of the function sees what committed before it ran), so the new owner's read of the table holds every
-- move stored before its claim and none after it. An advisory lock rather than ``FOR SHARE`` on the lease
-- row: the renewal every 2 s updates those rows, and would wait for (and deadlock with) the moves.

CREATE FUNCTION hands_lease_fence() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    me TEXT := current_setting('mahjong.owner', true);
    holder TEXT;
BEGIN
    IF me IS NULL OR me = '' THEN
        RETURN NEW;
    END IF;
    PERFORM pg_advisory_xact_lock_shared(27498, (NEW.table_id % 2147483648)::integer);
    SELECT owner INTO holder FROM table_leases WHERE table_id = NEW.table_id;
    IF FOUND AND holder <> me THEN
        RAISE EXCEPTION 'table % is run by % now, not by %', NEW.table_id, holder, me
            USING ERRCODE = 'MJ409';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER hands_lease_fence BEFORE INSERT OR UPDATE ON hands
    FOR EACH ROW EXECUTE FUNCTION hands_lease_fence();
