"""A real headless Chromium for the web table's tests: Debian's ``chromium`` driven by Playwright (PyPI),
nothing downloaded at run time. Missing chromium skips the browser tests, unless MAHJONG_REQUIRE_BROWSER
is set (``.ci/run`` sets it): then it fails them."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from table.timing import Timing

CHROMIUM = os.environ.get("MAHJONG_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(os.environ.get("MAHJONG_SCREENSHOTS", tempfile.gettempdir())) / "mahjong-web-shots"


# one hand, no waits: a page test plays a whole hand in moments
ONE_HAND = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, timer_scale=1.0, hands=1)

def need_browser() -> None:
    """Skip (or, with MAHJONG_REQUIRE_BROWSER, fail) where there is no chromium or no Playwright."""
    missing = []
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        missing.append(f"chromium ({CHROMIUM})")
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing.append("playwright")
    if missing:
        if os.environ.get("MAHJONG_REQUIRE_BROWSER"):
            pytest.fail(f"MAHJONG_REQUIRE_BROWSER is set but {', '.join(missing)} is missing", pytrace=False)
        pytest.skip(f"no {', '.join(missing)}: the browser tests need Debian's chromium and Playwright")


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """One browser on a fresh profile folder (Playwright passes it as --user-data-dir), with touch, closed
    and its folder removed after; its pages are the tests' phones and desktops."""
    from playwright.async_api import async_playwright

    profile = tempfile.mkdtemp(prefix="mahjong-chromium-")
    try:
        async with async_playwright() as driver:
            context = await driver.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
                args=FLAGS,
                headless=True,
                has_touch=True,
                viewport=PHONE,
            )
            try:
                yield context
            finally:
                await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


async def shoot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path
