"""A local Discord stand-in that the real, unmodified bot logs into, for end-to-end tests."""

from .config import Config
from .interactions import Interaction, Response
from .recorder import Attachment, Button, Message, Select, Violation
from .server import DevServer
from .users import SimUser

__all__ = [
    "Attachment",
    "Button",
    "Config",
    "DevServer",
    "Interaction",
    "Message",
    "Response",
    "Select",
    "SimUser",
    "Violation",
]
