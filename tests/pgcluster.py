"""A throw-away PostgreSQL server in a temporary folder, for the tests of the PostgreSQL store.

    cluster = Cluster.create()            # initdb + pg_ctl start, on a Unix socket in the folder
    url = cluster.url(await cluster.create_database())
    ...
    cluster.destroy()                     # pg_ctl stop, folder removed

The binaries come from ``$PG_BIN``, else the newest ``/usr/lib/postgresql/*/bin`` (Debian's packages),
else ``PATH``. PostgreSQL refuses to run as root, so when the tests run as root the server runs as
the ``postgres`` user the Debian packages create (or ``nobody``). A watcher process stops the server
and removes the folder when the tests' process ends, even if it is killed. Durability is switched off (fsync,
full-page writes): the cluster lives for one test run, and this keeps it fast on a busy machine.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg

SUPERUSER = "mahjong"
PORT = 5432  # names the socket file only: the server listens on no TCP port
# Runs beside the tests as the server's user: when the tests' process ends, however it ends (even
# SIGKILL), the pipe on its stdin closes, and it stops the server and removes the folder.
_WATCHER = 'cat >/dev/null; "$0" -D "$1" -m immediate -w stop >/dev/null 2>&1; rm -rf "$2"'
_SETTINGS = {
    "listen_addresses": "''",
    "fsync": "off",
    "full_page_writes": "off",
    "synchronous_commit": "off",
    "max_connections": "300",
    "shared_buffers": "32MB",
}


def find_bindir() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres, or None when PostgreSQL is not installed."""
    candidates = []
    if os.environ.get("PG_BIN"):
        candidates.append(Path(os.environ["PG_BIN"]))
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: _major(p), reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).parent)
    for folder in candidates:
        if all((folder / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def _major(path: Path) -> int:
    name = path.parent.name
    return int(name) if name.isdigit() else 0


def _server_user() -> str | None:
    """Who runs the server: None for the current user, unless that is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError(
        "running as root, and neither a 'postgres' nor a 'nobody' user exists to run PostgreSQL"
    )


class Cluster:
    def __init__(self, bindir: Path, folder: Path, user: str | None) -> None:
        self.bindir = bindir
        self.folder = folder
        self.data = folder / "data"
        self.user = user
        self._names = itertools.count(1)
        self._migrated: str | None = None

    @classmethod
    def create(cls, bindir: Path | None = None) -> Cluster:
        bindir = bindir or find_bindir()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (no initdb found)")
        user = _server_user()
        folder = Path(tempfile.mkdtemp(prefix="mahjong-pg-"))
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        cluster = cls(bindir, folder, user)
        cluster._watch()
        try:
            cluster._run(
                "initdb",
                "-D",
                str(cluster.data),
                "-U",
                SUPERUSER,
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            )
            cluster.start()
        except BaseException:
            cluster.destroy()
            raise
        return cluster

    def _watch(self) -> None:
        read, self._lifeline = os.pipe()  # not inherited by other children: only the watcher holds it
        self._watcher = subprocess.Popen(
            ["/bin/sh", "-c", _WATCHER, str(self.bindir / "pg_ctl"), str(self.data), str(self.folder)],
            stdin=read,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            start_new_session=True,  # a Ctrl-C to the tests' process group does not end it first
            **self._as_user(),
        )
        os.close(read)

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [str(self.bindir / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.folder,
            **self._as_user(),
        )

    def _as_user(self) -> dict:
        if self.user is None:
            return {}
        entry = pwd.getpwnam(self.user)
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def start(self) -> None:
        options = " ".join(f"-c {key}={value}" for key, value in _SETTINGS.items())
        options += f" -c unix_socket_directories={self.folder} -p {PORT}"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "server.log"),
            "-w",
            "-o",
            options,
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``immediate``: as a crash would, without a checkpoint)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        """Stop the server and remove the folder (the watcher does both; this waits for it)."""
        os.close(self._lifeline)
        self._watcher.wait(60)
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.folder}&port={PORT}"

    async def admin(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.url())

    async def create_database(self, name: str | None = None, template: str = "template0") -> str:
        """A new database, empty or a copy of ``template``; returns its name."""
        name = name or f"test_{os.getpid()}_{next(self._names)}"
        connection = await self.admin()
        try:
            await connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            await connection.close()
        return name

    async def migrated_database(self) -> str:
        """A new database holding every migration and no rows: a copy of one template migrated once, for
        property tests that want a fresh store per example (migrating each one costs half a second)."""
        if self._migrated is None:
            from data.store import Store

            template = await self.create_database(f"migrated_{os.getpid()}")
            store = await Store.open(self.url(template))
            await store.close()
            self._migrated = template
        return await self.create_database(template=self._migrated)

    async def drop_database(self, name: str) -> None:
        connection = await self.admin()
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await connection.close()
