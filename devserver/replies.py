"""Replies shaped the way discord.py reads them, and snowflakes read from the URL."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .errors import form_error

ARRIVED = "devserver.arrived"  # request key: the server clock when a request reached the stand-in
# request key: the JSON body (or multipart payload_json) as sent, once read; checked by devserver.openapi
BODY = web.RequestKey("devserver.body", object)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly application/json: discord.py parses nothing else."""
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def snowflake(request: web.Request, key: str) -> int:
    """A snowflake from the route; 50035 if it is not a number, as Discord answers."""
    try:
        return int(request.match_info[key])
    except ValueError:
        raise form_error(key, "Value is not snowflake.", "NUMBER_TYPE_COERCE") from None
