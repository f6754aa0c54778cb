"""The sandbox's transcript: every version of every message one person could see, in order — text,
pictures (saved beside it, one file per version, never overwritten), buttons and select menus — and
each answer the person gave."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .people import Answer, Pick
from .recorder import Message

IMAGE_NUMBER = re.compile(r"^(\d{4,})-")
LINK = re.compile(r"\]\((images/[^)]+)\)")  # a picture's link in the transcript


@dataclass
class Transcript:
    out: Path
    person_id: int
    images: int = 0  # the last picture's number in ``out/images``
    written: int = 0  # pictures this run wrote
    held: list[str] | None = None  # lines kept back until a heading is written (see hold)

    def __post_init__(self) -> None:
        folder = self.out / "images"
        folder.mkdir(parents=True, exist_ok=True)
        # a continued run numbers its pictures after the ones already there: no link changes meaning
        numbers = [int(m.group(1)) for p in folder.iterdir() if (m := IMAGE_NUMBER.match(p.name))]
        self.images = max(numbers, default=0)
        self.path = self.out / "transcript.md"
        if not self.path.exists():
            self._append("# Mahjong sandbox transcript\n\n")
        else:
            self._link_orphans(folder)

    def _link_orphans(self, folder: Path) -> None:
        """A run killed between saving a picture and writing its line left it unlinked: the continued
        transcript links it once, before its own pictures, so every saved picture is shown."""
        linked = set(LINK.findall(self.path.read_text(encoding="utf-8")))
        orphans = sorted(p.name for p in folder.iterdir() if IMAGE_NUMBER.match(p.name) and f"images/{p.name}" not in linked)
        if orphans:
            links = "".join(f"\n![{name}](images/{name})\n" for name in orphans)
            self._append(f"\n*Saved just before the last run stopped:*\n{links}\n")

    def note(self, text: str) -> None:
        self._append(f"\n## {text}\n\n")

    def hold(self) -> None:
        """Keep what arrives back (pictures are saved at once) until ``release``: a bot that resumes a
        table posts in the channel as soon as it is connected, before the sandbox can write the
        heading that says so."""
        self.held = []

    def release(self) -> None:
        held, self.held = self.held or [], None
        for text in held:
            self._append(text)

    def seen(self, message: Message, event: str) -> Message:
        if not message.visible_to(self.person_id):
            return message
        where = "DM" if message.dm_with else "only you" if message.ephemeral_to else "#general"
        text = message.text.strip().replace("\n", "\n> ")
        lines = [f"**{where}** · {event} · message {message.id}\n", f"> {text}\n" if text else ""]
        for attachment in message.attachments:
            if attachment.is_png:
                self.images += 1
                self.written += 1
                name = f"images/{self.images:04d}-{attachment.filename}"
                (self.out / name).write_bytes(attachment.data)
                lines.append(f"\n![{attachment.filename}]({name})\n")
        buttons = [b.label for b in message.buttons() if b.label]
        if buttons:
            lines.append("\nButtons: " + " · ".join(f"`{b}`" for b in buttons) + "\n")
        for select in message.selects():
            options = " · ".join(f"`{o.get('label') or o['value']}`" for o in select.options)
            state = " (disabled)" if select.disabled else ""
            picks = f"{select.min_values}–{select.max_values}"
            lines.append(f"\nSelect{state} *{select.placeholder or ''}* (choose {picks}): {options}\n")
        self._write("".join(lines) + "\n")
        return message

    def answered(self, message: Message, answer: Answer) -> None:
        """What the person did with a prompt, as they would tell it."""
        if isinstance(answer, Pick):
            chosen = " · ".join(f"`{label}`" for label in answer.labels())
            self._write(f"**You** chose {chosen} in *{answer.select.placeholder or 'the menu'}* (message {message.id})\n\n")
        else:
            self._write(f"**You** pressed `{answer.label}` (message {message.id})\n\n")

    def _write(self, text: str) -> None:
        if self.held is not None:
            self.held.append(text)
        else:
            self._append(text)

    def _append(self, text: str) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(text)
