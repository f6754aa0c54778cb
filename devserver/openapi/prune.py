"""Cut Discord's OpenAPI description down to what the stand-in serves, for pinning in the repository.

The published spec (discord/discord-api-spec, specs/openapi.json) is about 1.2 MB and describes every route
of the API. The stand-in serves a dozen of them and checks only the bodies the bot sends, so the pinned copy
keeps, verbatim: the operations of the routes `devserver.app.Api` registers (their parameters and request
bodies, not their responses) and every component schema those reach through `$ref`. Run it again after
adding a route to the stand-in:

    python -m devserver.openapi.prune path/to/discord-api-spec/specs/openapi.json COMMIT

It writes devserver/openapi/discord-api.json and prints its size.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from . import SPEC_PATH, spec_paths_for

API = "/api/v10"
KEPT = ("operationId", "parameters", "requestBody")  # of each operation; responses are not checked
# served, yet not in the description: OAuth2's token endpoint (form-encoded, RFC 6749; devserver/oauth.py)
OUTSIDE_SPEC = {("post", "/oauth2/token")}


def served_routes() -> set[tuple[str, str]]:
    """(method, template) of every REST route the stand-in registers, in its own parameter names."""
    from devserver.app import Api
    from devserver.server import DevServer

    app = Api(DevServer()).build()
    routes = set()
    for route in app.router.routes():
        canonical = route.resource.canonical if route.resource is not None else ""
        if route.method in ("HEAD", "*") or not canonical.startswith(API):
            continue
        routes.add((route.method.lower(), canonical[len(API) :]))
    return routes - OUTSIDE_SPEC


def _refs(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.add(ref)
        for value in node.values():
            found |= _refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value)
    return found


def prune(spec: dict[str, Any], routes: set[tuple[str, str]], commit: str) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for method, template in sorted(routes):
        for path in spec_paths_for(template, spec["paths"]):
            item = spec["paths"][path]
            if method not in item:
                continue
            kept = paths.setdefault(path, {})
            if "parameters" in item:
                kept["parameters"] = item["parameters"]
            kept[method] = {key: item[method][key] for key in KEPT if key in item[method]}
    schemas = spec["components"]["schemas"]
    wanted: set[str] = set()
    todo = _refs(paths)
    while todo:
        ref = todo.pop()
        prefix = "#/components/schemas/"
        if not ref.startswith(prefix):
            raise SystemExit(f"unexpected $ref {ref}: only component schemas are kept")
        name = ref[len(prefix) :]
        if name not in wanted:
            wanted.add(name)
            todo |= _refs(schemas[name])
    info = dict(spec["info"])
    info["x-pinned"] = {
        "source": "https://github.com/discord/discord-api-spec/blob/" + commit + "/specs/openapi.json",
        "pruned_by": "python -m devserver.openapi.prune",
    }
    return {
        "openapi": spec["openapi"],
        "info": info,
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": {name: schemas[name] for name in sorted(wanted)}},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Keep the parts of Discord's OpenAPI spec the stand-in serves."
    )
    parser.add_argument("spec", type=Path, help="specs/openapi.json of discord/discord-api-spec")
    parser.add_argument("commit", help="the discord-api-spec commit it was read at")
    args = parser.parse_args(argv)
    try:
        spec = json.loads(args.spec.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        print(f"cannot read {args.spec}: {error}", file=sys.stderr)
        return 2
    pruned = prune(spec, served_routes(), args.commit)
    text = json.dumps(pruned, indent=1, ensure_ascii=False, sort_keys=False) + "\n"
    SPEC_PATH.write_text(text, encoding="utf-8")
    print(
        f"{SPEC_PATH.name}: {len(text.encode()):,} bytes, {len(pruned['paths'])} paths, "
        f"{len(pruned['components']['schemas'])} schemas"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
