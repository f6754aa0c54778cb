"""The web table as a Discord Activity (issue 43, item 4): the same page, run inside Discord's client.

Discord loads the Activity from ``https://<client id>.discordsays.com/``, its proxy to this server's root
(the Developer Portal's URL mapping ``/`` → this server's public host: README, "As a Discord Activity"),
with ``frame_id``, ``instance_id``, ``platform``, ``channel_id`` … in the query. Routes, added to the web
table's application:

* ``GET /`` — the Activity's page (static/activity.html): it speaks the Embedded App SDK's postMessage
  protocol with Discord's client (static/embedded.js: handshake, READY, ``AUTHORIZE`` → a code) and posts
  the code here.
* ``POST /activity/token`` ``{"code", "channel_id"?}`` — the code exchanged at Discord's OAuth2 token
  endpoint (``POST {api}/oauth2/token``, ``grant_type=authorization_code``, the app's client id and secret),
  then ``GET {api}/users/@me`` with the access token: who this is. Their seat (the table whose button
  launched it first, then the one in the Activity's channel, else their latest) is answered with a normal signed seat token (web/tokens.py) and the
  page's relative address, ``{"token", "play": "play/<token>", "table", "seat"}``; the page goes there and
  plays as from the DM's link. Refusals are JSON ``{"error", "message"}`` and nothing else: a missing code
  400 ``bad_request``; a code Discord refuses (unknown, used, expired) 401 ``invalid_code``; a person not
  seated at a table running here 403 ``not_seated``; more exchanges than ``exchanges`` a ``window`` 429
  ``busy`` (not sent on to Discord); Discord refusing the app's own credentials, or out of reach, 502
  ``unavailable`` (logged: the operator's to fix). ``message`` is in the person's language.

No discord import: the API base is asked of ``api`` at each exchange (the bot passes discord.py's own,
which the stand-in points at itself), the words of ``say`` (the catalogue's, cogs/i18n).
"""

from __future__ import annotations

import html
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
from aiohttp import web

from .server import STATIC, WebTable
from .tokens import Grant, expiry

log = logging.getLogger(__name__)

# where Discord's client runs: the parent frames the page accepts protocol messages from, as the SDK does;
# "null" is the mobile apps' web view. Whoever frames the page can at most hand it a code of their own: the
# code is worth a seat only once the bot has exchanged it with Discord under the app's secret
DISCORD_ORIGINS = (
    "https://discord.com", "https://ptb.discord.com", "https://canary.discord.com",
    "https://discordapp.com", "https://ptb.discordapp.com", "https://canary.discordapp.com", "null",
)
SCOPES = ("identify",)  # who the person is: nothing more is asked of them
EXCHANGE_TIMEOUT = aiohttp.ClientTimeout(total=10.0)
WANT_FOR = 600.0  # seconds a launch's table is remembered for its exchange
PAGE_WORDS = ("connecting", "outside", "authorizing", "denied")


class Seats(Protocol):
    """Where a person sits (the cog's side: cogs/mahjong/webtables.py)."""

    # (table, seat) or None; ``table`` and then ``channel`` preferred where they sit at several
    def seat_of(self, user: int, channel: int | None, table: int | None = None) -> tuple[int, int] | None: ...


@dataclass(frozen=True)
class ActivitySettings:
    client_id: str
    client_secret: str
    api: Callable[[], str]  # Discord's REST base, e.g. https://discord.com/api/v10
    origins: tuple[str, ...] = DISCORD_ORIGINS
    # exchanges asked of Discord per window, all pages together: a flood of made-up codes (or a wrong secret,
    # each refusal a 401 that Discord counts against the host) is answered 429 here, never sent on
    exchanges: int = 30
    window: float = 10.0


class Refused(Exception):
    def __init__(self, status: int, error: str) -> None:
        super().__init__(error)
        self.status = status
        self.error = error


class Activity:
    def __init__(self, table: WebTable, settings: ActivitySettings, seats: Seats, say: Callable[[str, str], str]) -> None:
        self.table = table
        self.settings = settings
        self.seats = seats
        self.say = say  # (locale, key under "activity.") → the words
        self.exchanges: list[str] = []  # each token request's outcome, in order (tests, the log)
        self._asked: deque[float] = deque()  # when the exchanges of the current window were asked
        self._wanted: dict[int, tuple[int, float]] = {}  # person → (the table they launched it for, when)
        table.app.add_routes([web.get("/", self._page), web.post("/activity/token", self._token)])

    # ------------------------------------------------------------------ the page

    async def _page(self, request: web.Request) -> web.StreamResponse:
        locale = _asked_locale(request)
        words = {key: self.say(locale, key) for key in PAGE_WORDS}
        text = (STATIC / "activity.html").read_text(encoding="utf-8")
        text = text.replace("$CLIENT_ID", html.escape(self.settings.client_id))
        text = text.replace("$ORIGINS", html.escape(json.dumps(list(self.settings.origins))))
        text = text.replace("$WORDS", html.escape(json.dumps(words, ensure_ascii=False)))
        text = text.replace("$CONNECTING", html.escape(words["connecting"]))
        return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})

    # ------------------------------------------------------------------ the exchange

    async def _token(self, request: web.Request) -> web.Response:
        locale = _asked_locale(request)
        try:
            try:
                body = await request.json()
                code = str(body["code"])
                channel = int(body["channel_id"]) if str(body.get("channel_id") or "").isdigit() else None
            except (ValueError, KeyError, TypeError):
                raise Refused(400, "bad_request") from None
            if not code or len(code) > 200:
                raise Refused(400, "bad_request")
            self._admit()
            user, locale = await self.identify(code, locale)
            seat = self.seats.seat_of(user, channel, self.wanted(user))
            if seat is None:
                raise Refused(403, "not_seated")
        except Refused as refused:
            self.exchanges.append(refused.error)
            message = self.say(locale, refused.error)
            return web.json_response({"error": refused.error, "message": message}, status=refused.status)
        table, number = seat
        token = self.table.signer.make(Grant(table, number, user, expiry(self.table.clock())))
        self.exchanges.append("ok")
        return web.json_response({"token": token, "play": f"play/{token}", "table": table, "seat": number})

    def want(self, user: int, table: int) -> None:
        """``user`` launched the Activity from ``table``'s button: the exchange that follows seats them there
        (a launch carries nothing of the bot's to the page, so the bot remembers, for a few minutes)."""
        now = self.table.clock()
        self._wanted = {who: at for who, at in self._wanted.items() if at[1] > now - WANT_FOR}
        self._wanted[user] = (table, now)

    def wanted(self, user: int) -> int | None:
        table, at = self._wanted.get(user, (None, 0.0))
        return table if at > self.table.clock() - WANT_FOR else None

    def _admit(self) -> None:
        now = self.table.clock()
        while self._asked and self._asked[0] <= now - self.settings.window:
            self._asked.popleft()
        if len(self._asked) >= self.settings.exchanges:
            raise Refused(429, "busy")
        self._asked.append(now)

    async def identify(self, code: str, locale: str) -> tuple[int, str]:
        """The person a code stands for, and their Discord language: Discord's token endpoint, then /users/@me."""
        api = self.settings.api().rstrip("/")
        form = {
            "grant_type": "authorization_code", "code": code,
            "client_id": self.settings.client_id, "client_secret": self.settings.client_secret,
        }
        try:
            async with aiohttp.ClientSession(timeout=EXCHANGE_TIMEOUT) as http:
                async with http.post(f"{api}/oauth2/token", data=form) as answer:
                    granted = await _json(answer)
                    if answer.status == 401 or granted.get("error") == "invalid_client":
                        log.warning("Discord refused the Activity's client id/secret (MAHJONG_CLIENT_ID/_SECRET)")
                        raise Refused(502, "unavailable")
                    if answer.status != 200 or "access_token" not in granted:
                        raise Refused(401, "invalid_code")  # invalid_grant: unknown, used or expired
                bearer = {"Authorization": f"Bearer {granted['access_token']}"}
                async with http.get(f"{api}/users/@me", headers=bearer) as answer:
                    me = await _json(answer)
                    if answer.status != 200 or not str(me.get("id", "")).isdigit():
                        raise Refused(401, "invalid_code")
        except (aiohttp.ClientError, TimeoutError) as error:
            log.warning("Discord's OAuth2 endpoints out of reach: %s", error)
            raise Refused(502, "unavailable") from None
        return int(me["id"]), str(me.get("locale") or locale)


async def _json(answer: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        body = await answer.json(content_type=None)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _asked_locale(request: web.Request) -> str:
    """The page's language before Discord says the person's: the browser's first choice."""
    return request.headers.get("Accept-Language", "en").split(",")[0].split(";")[0].strip() or "en"
