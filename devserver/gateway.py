"""The gateway websocket: HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE, then event dispatch."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import DevServer

_log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 0, 1, 2, 6, 8
RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 7, 9, 10, 11
AUTHENTICATION_FAILED = 4004
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12


class Gateway:
    """One bot session over plain JSON text frames (the client only inflates binary frames)."""

    def __init__(self, server: DevServer) -> None:
        self.server = server
        self.ws: web.WebSocketResponse | None = None
        self.sockets: set[web.WebSocketResponse] = set()
        self.seq = 0
        self.session_id = "devserver-session"
        self.identified = asyncio.Event()
        self.intents: int | None = None
        self._send_lock = asyncio.Lock()  # one event at a time, in the order they were raised
        self._tasks: set[asyncio.Task[None]] = set()
        self.resuming = False  # asked to reconnect (op 7): interactions wait for the RESUME
        self.resume_hold = 0.0  # seconds the RESUME takes to be accepted
        self.missed: list[tuple[Any, dict[str, Any]]] = []  # (Interaction, INTERACTION_CREATE) to replay

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
            if self.ws is ws:
                self.ws = None
                self.identified.clear()
                self.server.recorder.bump()  # wake whoever waits for the bot to go away
        return ws

    async def _received(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            await self._send(ws, {"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            if data.get("token") != self.server.config.token:
                await ws.close(code=AUTHENTICATION_FAILED, message=b"Authentication failed.")
                return
            self.intents = data.get("intents")
            self.ws = ws
            self.seq = 0
            shard = data.get("shard")
            await self.dispatch("READY", self._ready_payload(shard))
            await self.dispatch(
                "GUILD_CREATE", self.server.world.guild_payload(with_members=self.members_intent)
            )
            self.identified.set()
        elif op == RESUME:
            if data.get("session_id") != self.session_id:
                await self._send(ws, {"op": INVALID_SESSION, "d": False})
                return
            if self.resume_hold:
                await asyncio.sleep(self.resume_hold)
            self.ws = ws
            missed, self.missed, self.resuming = self.missed, [], False
            for interaction, event in missed:  # Discord replays what the session missed, then RESUMED
                interaction.delivered_at = self.server.clock.now()
                await self.dispatch("INTERACTION_CREATE", event)
            await self.dispatch("RESUMED", {})
            self.identified.set()
        elif op == REQUEST_MEMBERS:
            world = self.server.world
            members = [world.member_payload(i) for i in [world.bot.id, *world.members]]
            chunk = {"guild_id": str(world.guild_id), "members": members, "chunk_index": 0, "chunk_count": 1}
            if data.get("nonce"):
                chunk["nonce"] = data["nonce"]
            await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        # presence (3) and voice (4) updates need no answer

    async def request_reconnect(self, hold: float) -> None:
        """Send op 7 RECONNECT: the bot closes and RESUMEs; the RESUME is accepted after `hold` seconds."""
        if self.ws is None or self.ws.closed:
            raise RuntimeError("no bot is connected to ask to reconnect")
        self.resuming, self.resume_hold = True, hold
        await self._send(self.ws, {"op": RECONNECT})

    @property
    def connected(self) -> bool:
        """A bot is logged in and listening: interactions reach it."""
        return self.ws is not None and not self.ws.closed and self.identified.is_set()

    def wants(self, intent: int) -> bool:
        return bool((self.intents or 0) & intent)

    def emit(self, event: str, data: dict[str, Any]) -> None:
        """Queue an event raised by a REST call (MESSAGE_CREATE…) without blocking the reply; dropped offline."""
        if self.ws is None or self.ws.closed:
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

    def _ready_payload(self, shard: list[int] | None) -> dict[str, Any]:
        world = self.server.world
        user = world.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        out: dict[str, Any] = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(world.guild_id), "unavailable": True}],
            "session_id": self.session_id,
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
        """Send one event to the connected bot."""
        async with self._send_lock:
            if self.ws is None or self.ws.closed:
                raise RuntimeError(f"cannot dispatch {event}: no bot is connected to the gateway")
            self.seq += 1
            await self._send(self.ws, {"op": DISPATCH, "t": event, "s": self.seq, "d": data})

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for ws in list(self.sockets):
            await ws.close(code=1000)
