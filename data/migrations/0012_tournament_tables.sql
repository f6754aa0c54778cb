-- 0012: a tournament's own table settings and who runs it (issue 42). ``tournaments`` gains the turn and
-- claim times every table of it plays (chosen at create; the server's 系統桌 turn and the rule set's
-- claim time by default, NULL only for a tournament created before 0012: then those defaults), its house
-- rules (the preset's name and the switches it resolved to, JSON), and whether each table of a round
-- opens in its own thread under the tournament's channel. ``tournament_tables.thread_id`` is that thread.
-- ``guild_settings.organiser_role_id``: besides members with Manage Server, members with this role create
-- and run tournaments (/mahjong setup organisers); NULL: Manage Server only.

ALTER TABLE tournaments ADD COLUMN turn_seconds INTEGER;
ALTER TABLE tournaments ADD COLUMN claim_seconds INTEGER;
ALTER TABLE tournaments ADD COLUMN preset TEXT NOT NULL DEFAULT 'document';
ALTER TABLE tournaments ADD COLUMN house_rules TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tournaments ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_tables ADD COLUMN thread_id INTEGER;
ALTER TABLE guild_settings ADD COLUMN organiser_role_id INTEGER;
