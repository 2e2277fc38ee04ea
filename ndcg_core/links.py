"""Short links: any Playground, Learn or Practice state saved under a six-character code (``/?go=K7P3QX``), so a
projected link and its QR code stay short. Kept in their own table of the app's database (the classroom's engine,
``ndcg_core.classroom.storage.Database``), apart from the classroom's rooms: a link unused for a year is deleted."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from .classroom import rules
from .classroom.storage.engine import Database, code_for, resilient
from .errors import InputError, shown

SHORT_LINK_PAGES = ("playground", "learn", "practice")
MAX_LINK_PARAMS = 25_000  # characters of a short link's saved parameters
KEEP_DAYS = 365.0  # a link unused this long is deleted

metadata = sa.MetaData()
short_links = sa.Table(
    "short_links",
    metadata,
    sa.Column("code", sa.String(6), primary_key=True),
    sa.Column("digest", sa.String(64), nullable=False, unique=True),
    sa.Column("page", sa.String(16), nullable=False),
    sa.Column("params", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("used_at", sa.Float, nullable=False, index=True),
)


class ShortLinks:
    """Saving a page's link parameters under a code and finding them again; the table is created on first use."""

    def __init__(self, db: Database, *, keep_days: float = KEEP_DAYS) -> None:
        self.db = db
        self.keep_days = keep_days
        self._create()

    @resilient
    def _create(self) -> None:
        metadata.create_all(self.db.engine, checkfirst=True)

    @resilient
    def save(self, page: str, params: Mapping[str, str]) -> str:
        """A short code for a page's link parameters; the same parameters always get the same code."""
        if page not in SHORT_LINK_PAGES:
            raise InputError("go.page", value=shown(page), choices=", ".join(SHORT_LINK_PAGES))
        text = json.dumps(dict(sorted(params.items())), ensure_ascii=False, separators=(",", ":"))
        if len(text) > MAX_LINK_PARAMS:
            raise InputError("link.too_long", count=len(text), limit=MAX_LINK_PARAMS)
        digest = hashlib.sha256(f"{page}\n{text}".encode()).hexdigest()
        return code_for(self.db, short_links, "short-link", digest, page=page, params=text)

    @resilient
    def load(self, code: Any) -> tuple[str, dict[str, str]]:
        """The page and link parameters a short code stands for; an ``InputError`` if there is none."""
        code = rules.read_code(code, "go.code")
        with self.db.write() as conn:
            row = conn.execute(
                sa.select(short_links.c.page, short_links.c.params).where(short_links.c.code == code)
            ).first()
            if row is None:
                raise InputError("go.unknown", code=code)
            conn.execute(sa.update(short_links).where(short_links.c.code == code).values(used_at=self.db.clock()))
        return row.page, json.loads(row.params)

    @resilient
    def purge(self) -> int:
        """Delete the links unused for ``keep_days``; how many."""
        cutoff = self.db.clock() - self.keep_days * 86400
        with self.db.write() as conn:
            return int(conn.execute(sa.delete(short_links).where(short_links.c.used_at < cutoff)).rowcount)
