"""Knobs of the stand-in: Discord's real numbers by default, shortened by tests to keep them fast."""

from __future__ import annotations

from dataclasses import dataclass

MiB = 1024 * 1024


@dataclass
class Config:
    token: str = "devserver-bot-token"
    response_deadline: float = 3.0  # seconds to the initial interaction response
    token_lifetime: float = 15 * 60.0  # seconds an interaction token accepts follow-ups and edits
    attachment_size_limit: int = 10 * MiB  # bytes of files per message (sent as attachment_size_limit)
    heartbeat_interval_ms: int = 41_250
    wait_timeout: float = 5.0  # default for the waiting helpers
