"""The web table (issue 43): the same table sessions as the DMs, drawn in a browser and played by tapping.

Off unless ``MAHJONG_WEB=host:port`` is set. ``tokens`` signs and checks the links; ``wire`` turns a seat's
screen (table/screens.py, decided by the one visibility rule) into the JSON a page draws; ``sheet`` serves the
project's own tile art as one sprite sheet; ``server`` is the aiohttp application (pages, the WebSocket, the
push of every change to every open page). ``watch``, ``replay`` and ``board`` are the spectators', the finished
matches' and a server's leaderboard pages, on the same application (``pages``: what they share); ``activity``
runs the play page as a Discord Activity (the code exchange that finds a person's seat). No discord import
here: the cog side is cogs/mahjong/webtables.py, cogs/mahjong/webpages.py and cogs/mahjong/activity.py.
"""
