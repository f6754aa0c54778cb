-- 0014: a server's leaderboard on the web table (issue 43): ``guild_settings.web_board`` 1 shows this server's
-- /mahjong leaderboard at /board/<guild> (web/board.py) when the bot runs its web table; 0, the default, keeps it
-- off (the page answers 404). Turned on and off with /mahjong setup web_board.

ALTER TABLE guild_settings ADD COLUMN web_board INTEGER NOT NULL DEFAULT 0;
