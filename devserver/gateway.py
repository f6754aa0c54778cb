"""The gateway websocket: HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE, then event dispatch.

Sharded as Discord shards (API docs, Gateway → Sharding): a session IDENTIFYs with ``[shard_id,
shard_count]`` (none: ``[0, 1]``), a guild belongs to shard ``(guild_id >> 22) % shard_count`` and only
that shard's session hears of it (READY's guild list, GUILD_CREATE, its messages and interactions),
and events without a guild — every DM, and so every click on a DM button — go to shard 0 alone.
Session starts are limited as Discord limits them (devserver/identify.py): op 9 past ``max_concurrency``,
close code 4011 for a session that would hold too many guilds, the day's IDENTIFYs counted.

Several sessions may identify with the same ``[shard_id, shard_count]`` (API docs, Gateway → Sharding:
"You can establish multiple sessions with the same [shard_id, num_shards]"; ``num_shards`` "is only used
for routing traffic"): routing is by the formula alone, so every session the formula picks hears the
event — each session with shard 0 hears every DM (discord/discord-api-docs pull 6853 spells this out:
"events may be sent to multiple sessions"; two processes on one token both receiving one click is what
bots that run twice see). An interaction delivered twice is still answered once: the second callback is
refused with 40060 (interactions.py), so the bot's sessions must agree on who answers (a standby shard-0
session: cogs/mahjong/cluster.py, data/claims.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .identify import SHARDING_REQUIRED, SessionStarts, Start

if TYPE_CHECKING:
    from .server import DevServer

_log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 0, 1, 2, 6, 8
RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 7, 9, 10, 11
AUTHENTICATION_FAILED = 4004
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a guild's events go to (Discord's formula)."""
    return (guild_id >> 22) % shard_count


@dataclass(eq=False)
class Session:
    """One identified shard of the bot."""

    ws: web.WebSocketResponse
    shard_id: int
    shard_count: int
    intents: int | None
    seq: int = 0
    number: int = 0  # the how-manyth IDENTIFY of this shard: each session has its own id

    @property
    def session_id(self) -> str:
        return f"devserver-session-{self.shard_id}" + (f"-{self.number}" if self.number else "")


class Gateway:
    """The bot's sessions, one per shard, over plain JSON text frames (the client only inflates binary frames)."""

    def __init__(self, server: DevServer) -> None:
        self.server = server
        self.sessions: dict[int, Session] = {}  # by shard id: the latest session of each shard
        self.every: list[Session] = []  # every session identified, several per shard if the bot opens them
        self.sockets: set[web.WebSocketResponse] = set()
        self.identified = asyncio.Event()  # set while at least one shard is identified
        self._send_lock = asyncio.Lock()  # one event at a time, in the order they were raised
        self._tasks: set[asyncio.Task[None]] = set()
        self.resuming = False  # asked to reconnect (op 7): interactions wait for the RESUME
        self.resume_hold = 0.0  # seconds the RESUME takes to be accepted
        self.missed: list[tuple[Any, dict[str, Any]]] = []  # (Interaction, INTERACTION_CREATE) to replay
        self.starts = SessionStarts(server.config, server.clock)  # IDENTIFYs judged and counted
        self.held: dict[int, asyncio.Event] = {}  # dropped shards: their RESUME / IDENTIFY waits for restore()
        self.refuse_resume: set[int] = set()  # restored shards whose RESUME is refused: a fresh READY follows

    @property
    def ws(self) -> web.WebSocketResponse | None:
        """Shard 0's socket (the only one of an unsharded bot)."""
        session = self.sessions.get(0)
        return None if session is None else session.ws

    @property
    def intents(self) -> int | None:
        """The intents the bot identified with (every shard of one bot sends the same)."""
        return next((session.intents for session in self.sessions.values()), None)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.sockets.add(ws)
        try:
            await self._send(
                ws, {"op": HELLO, "d": {"heartbeat_interval": self.server.config.heartbeat_interval_ms}}
            )
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._received(ws, json.loads(msg.data))
        finally:
            self.sockets.discard(ws)
            # its sessions stay, closed, for a RESUME (Discord keeps a session resumable for a while): what
            # is missed meanwhile is replayed then; a new IDENTIFY replaces them
            if all(session.ws.closed for session in self.every):
                self.identified.clear()
            self.server.recorder.bump()  # wake whoever waits for the bot (or a shard) to go away
        return ws

    async def _received(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        op, d = payload.get("op"), payload.get("d")
        data: dict[str, Any] = d if isinstance(d, dict) else {}  # a heartbeat's d is a sequence number
        if op == HEARTBEAT:
            await self._send(ws, {"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            if data.get("token") != self.server.config.token:
                await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
                return
            shard = data.get("shard")
            shard_id, shard_count = (int(shard[0]), int(shard[1])) if shard else (0, 1)
            await self._wait_held(shard_id)  # a dropped shard's IDENTIFY waits for restore_gateway
            if not await self._may_start(ws, (shard_id, shard_count) if shard else None):
                return
            session = self._identified(Session(ws, shard_id, shard_count, data.get("intents")))
            await self._dispatch_to(session, "READY", self._ready_payload(session, shard))
            if self._owns_guild(session):
                await self._dispatch_to(
                    session, "GUILD_CREATE", self.server.world.guild_payload(with_members=self.members_intent)
                )
            self.identified.set()
        elif op == RESUME:
            found = next((x for x in self.every if x.session_id == data.get("session_id")), None)
            if found is None:
                await self._send(ws, {"op": INVALID_SESSION, "d": False})
                return
            await self._wait_held(found.shard_id)
            if found.shard_id in self.refuse_resume:  # Discord would not resume it: the bot IDENTIFYs afresh
                self.refuse_resume.discard(found.shard_id)
                await self._send(ws, {"op": INVALID_SESSION, "d": False})
                return
            if self.resume_hold:
                await asyncio.sleep(self.resume_hold)
            found.ws = ws
            missed, self.missed, self.resuming = self.missed, [], False
            for interaction, event in missed:  # Discord replays what the session missed, then RESUMED
                interaction.delivered_at = self.server.clock.now()
                await self.dispatch("INTERACTION_CREATE", event)
            await self._dispatch_to(found, "RESUMED", {})
            self.identified.set()
        elif op == REQUEST_MEMBERS:
            world = self.server.world
            members = [world.member_payload(i) for i in [world.bot.id, *world.members]]
            chunk = {"guild_id": str(world.guild_id), "members": members, "chunk_index": 0, "chunk_count": 1}
            if data.get("nonce"):
                chunk["nonce"] = data["nonce"]
            await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        # presence (3) and voice (4) updates need no answer

    async def _may_start(self, ws: web.WebSocketResponse, shard: tuple[int, int] | None) -> bool:
        """Discord's session-start limits (devserver/identify.py): op 9 past max_concurrency, 4011 for a
        session that would hold too many guilds, every session ended once the day's IDENTIFYs are spent."""
        start = self.starts.identify(shard)
        if start is Start.TOO_SOON:
            await self._send(ws, {"op": INVALID_SESSION, "d": False})
        elif start is Start.SHARDING_REQUIRED:
            await ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
        elif start is Start.LIMIT_SPENT:
            limit = self.server.config.identify_limit
            self.server.recorder.violation(
                "identify_limit", AUTHENTICATION_FAILED, f"more than {limit} IDENTIFYs a day: the token is reset"
            )
            for socket in list(self.sockets):
                await socket.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
        return start is Start.READY

    async def request_reconnect(self, hold: float) -> None:
        """Send op 7 RECONNECT: the bot closes and RESUMEs; the RESUME is accepted after `hold` seconds."""
        session = self.sessions.get(0)
        if session is None or session.ws.closed:
            raise RuntimeError("no bot is connected to ask to reconnect")
        self.resuming, self.resume_hold = True, hold
        await self._send(session.ws, {"op": RECONNECT})

    async def drop(self, shard: int = 0) -> None:
        """The shard's connection breaks (Discord closes it with 4000, as after a network fault): discord.py
        reconnects at once and sends RESUME, which waits until ``restore``; meanwhile nothing reaches that
        shard, so a click carried by it fails as on Discord ("This interaction failed")."""
        session = self.sessions.get(shard)
        if session is None or session.ws.closed:
            raise RuntimeError(f"shard {shard} is not connected")
        self.held[shard] = asyncio.Event()
        await session.ws.close(code=4000, message=b"Unknown error.")

    def restore(self, shard: int = 0, *, resume: bool = True) -> None:
        """Let the dropped shard back: its RESUME accepted (RESUMED), or refused (``resume`` False: op 9, then
        a fresh IDENTIFY and READY)."""
        if not resume:
            self.refuse_resume.add(shard)
        gate = self.held.pop(shard, None)
        if gate is not None:
            gate.set()

    async def _wait_held(self, shard: int) -> None:
        gate = self.held.get(shard)
        if gate is not None:
            await gate.wait()

    @property
    def connected(self) -> bool:
        """A bot is logged in and listening (at least one of its shards)."""
        return any(not session.ws.closed for session in self.every) and self.identified.is_set()

    def reaches(self, data: dict[str, Any], event: str = "") -> bool:
        """A session of the shard this event goes to is connected: a click on it reaches the bot."""
        return bool(self._sessions_for(event, data))

    def _identified(self, session: Session) -> Session:
        """A new session of its shard, beside any other of the same shard still connected (a session of
        the shard whose socket closed is replaced: it can no longer be resumed once identified again)."""
        same = [x for x in self.every if x.shard_id == session.shard_id]
        session.number = max((x.number + 1 for x in same), default=0)
        self.every = [x for x in self.every if x.shard_id != session.shard_id or not x.ws.closed] + [session]
        self.sessions[session.shard_id] = session
        return session

    def _owns_guild(self, session: Session) -> bool:
        """The guild is this session's (its shard), and the bot is still in it."""
        if self.server.bot_removed:
            return False
        return shard_of(self.server.world.guild_id, session.shard_count) == session.shard_id

    def _sessions_for(self, event: str, data: dict[str, Any]) -> list[Session]:
        """The connected sessions the event goes to: every one the sharding formula picks."""
        guild = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
        return [
            session
            for session in self.every
            if not session.ws.closed
            and (session.shard_id == 0 if guild is None else shard_of(int(guild), session.shard_count) == session.shard_id)
        ]

    def wants(self, intent: int) -> bool:
        return bool((self.intents or 0) & intent)

    def emit(self, event: str, data: dict[str, Any]) -> None:
        """Queue an event raised by a REST call (MESSAGE_CREATE…) without blocking the reply; dropped offline."""
        if not self.reaches(data, event):
            return
        task = asyncio.create_task(self._emit(event, data), name=f"devserver-{event}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _emit(self, event: str, data: dict[str, Any]) -> None:
        delay = self.server.delays.gateway()
        if delay:
            await asyncio.sleep(delay)
        try:
            await self.dispatch(event, data)
        except (RuntimeError, ConnectionError):
            pass  # the bot went away meanwhile: Discord would not deliver it either

    @property
    def members_intent(self) -> bool:
        """Discord lists other members and sends member events only to bots with the GUILD_MEMBERS intent."""
        return bool((self.intents or 0) & GUILD_MEMBERS_INTENT)

    def _ready_payload(self, session: Session, shard: list[int] | None) -> dict[str, Any]:
        world = self.server.world
        user = world.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        guilds = [{"id": str(world.guild_id), "unavailable": True}] if self._owns_guild(session) else []
        out: dict[str, Any] = {
            "v": 10,
            "user": user,
            "guilds": guilds,
            "session_id": session.session_id,
            "resume_gateway_url": self.server.gateway_url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if shard is not None:
            out["shard"] = shard
        return out

    async def _send(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        payload.setdefault("s", None)
        payload.setdefault("t", None)
        payload.setdefault("d", None)
        await ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send one event to the shard it belongs to (its guild's, or shard 0 without a guild): to every
        session of that shard."""
        sessions = self._sessions_for(event, data)
        if not sessions:
            raise RuntimeError(f"cannot dispatch {event}: no bot is connected to the gateway on its shard")
        heard = 0
        for session in sessions:
            with contextlib.suppress(RuntimeError, ConnectionError):  # one going away: the others hear it
                await self._dispatch_to(session, event, data)
                heard += 1
        if not heard:
            raise RuntimeError(f"cannot dispatch {event}: every session of its shard went away")

    async def _dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        async with self._send_lock:
            if session.ws.closed:
                raise RuntimeError(f"cannot dispatch {event}: shard {session.shard_id} went away")
            session.seq += 1
            await self._send(session.ws, {"op": DISPATCH, "t": event, "s": session.seq, "d": data})

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for ws in list(self.sockets):
            await ws.close(code=1000)
