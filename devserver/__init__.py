"""A local Discord stand-in that the real, unmodified bot logs into, for end-to-end tests."""

from .clock import Clock
from .config import Config, Latency, RateLimits, Window
from .interactions import Interaction, Response
from .recorder import Attachment, Button, Message, Select, Violation
from .server import DevServer
from .users import SimUser

__all__ = [
    "Attachment",
    "Button",
    "Clock",
    "Config",
    "DevServer",
    "Interaction",
    "Latency",
    "Message",
    "RateLimits",
    "Response",
    "Select",
    "SimUser",
    "Violation",
    "Window",
]
