-- 0013 for PostgreSQL: the process that answers an interaction Discord delivered to several sessions
-- (as ../0013_interaction_claims.sql; data/claims.py says why a row rather than an advisory lock).

CREATE TABLE interaction_claims (
    interaction_id BIGINT  PRIMARY KEY,
    owner          TEXT    NOT NULL,
    claimed_at     DOUBLE PRECISION NOT NULL
);
CREATE INDEX interaction_claims_age ON interaction_claims (claimed_at);
