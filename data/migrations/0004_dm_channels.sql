-- 0004: each person's DM channel with the bot, once opened. A DM channel's id never changes, and
-- discord.py keeps only 128 of them in memory (and none after a restart): reusing the stored id spares
-- Discord a burst of "open a DM" requests, which it refuses when they come too fast (40003).

CREATE TABLE dm_channels (
    user_id    INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL
) WITHOUT ROWID;
