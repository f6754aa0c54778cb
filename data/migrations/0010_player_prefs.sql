-- 0010: each person's own preferences (issue 39), one row a person, global across servers: the nudge DM
-- when a decision waits on them, the theme of their pictures, and the auto toggles (auto-win, no calls,
-- auto-discard 摸切) they switch from their DM or /mahjong settings. A person without a row has the
-- defaults (data/prefs.py, PlayerPrefs).

CREATE TABLE player_prefs (
    user_id      INTEGER PRIMARY KEY,
    nudge        INTEGER NOT NULL DEFAULT 1,
    theme        TEXT    NOT NULL DEFAULT 'felt' CHECK (theme IN ('felt', 'ocean', 'sakura', 'contrast')),
    auto_win     INTEGER NOT NULL DEFAULT 0,
    no_calls     INTEGER NOT NULL DEFAULT 0,
    auto_discard INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
