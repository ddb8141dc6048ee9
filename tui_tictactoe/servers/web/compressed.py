"""The page's files, gzip-compressed once when serve-web starts, not per request.

textual-serve's page pulls ~900 KB of files (its textual.js is 514 KB, its fonts 380 KB)
that aiohttp sent as they are. aiohttp's own file responses serve a file.gz beside a
file to a client that accepts gzip (with `Content-Encoding`, `Vary`, ETags and sendfile
as for the plain file), and the plain file to one that does not; it never compresses a
file on the fly unless asked, and asked it would spend ~30 ms of the server's CPU on
textual.js for every tab. So the files are copied once into a directory of the
server's own with a `.gz` beside each one that compresses (`COMPRESSED`), served from
there, and the directory is removed when the server stops.
"""

from __future__ import annotations

import gzip
import shutil
import tempfile
from pathlib import Path

COMPRESSED = (".js", ".css", ".html", ".svg", ".ttf", ".json", ".txt", ".map")
"""Suffixes of the files worth compressing: text, and fonts (a third smaller). Images
(PNG) are compressed already."""
LEVEL = 9  # paid once per file at start-up (~0.1 s for them all), not per request


class CompressedFiles:
    """Copies of directories of files, each with a `.gz` beside those that compress."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="tui-tictactoe-web-"))

    def add(self, name: str, source: Path) -> Path:
        """`source`'s files copied under `name`, with their `.gz`; the copy's path."""
        target = self.root / name
        shutil.copytree(source, target, symlinks=False)
        for path in sorted(target.rglob("*")):
            if path.is_file() and path.suffix.lower() in COMPRESSED:
                data = path.read_bytes()
                packed = gzip.compress(data, LEVEL, mtime=0)
                if len(packed) < len(data):
                    path.with_name(path.name + ".gz").write_bytes(packed)
        return target

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
