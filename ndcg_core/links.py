"""Short links: any Playground, Learn or Practice state saved under a six-character code (``/?go=K7P3QX``), so a
projected link and its QR code stay short. Kept in their own table of the app's database (the classroom's engine,
``ndcg_core.classroom.storage.Database``), apart from the classroom's rooms: a link unused for a year is deleted.

Anyone may make one, so their number is bounded (``LinkLimits``): one client (its address) makes at most so many new
links an hour, and the table keeps at most so many, the least lately used making way for a new one."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import sqlalchemy as sa

from .classroom import rules
from .classroom.storage.engine import Database, code_for, resilient
from .errors import InputError, shown

SHORT_LINK_PAGES = ("playground", "learn", "practice")
MAX_LINK_PARAMS = 25_000  # characters of a short link's saved parameters
KEEP_DAYS = 365.0  # a link unused this long is deleted
HOUR = 3600.0


@dataclass(frozen=True)
class LinkLimits:
    """How many short links one client may make an hour (``NDCG_LAB_SHORT_LINKS_PER_HOUR``) and how many the server
    keeps (``NDCG_LAB_MAX_SHORT_LINKS``). A link asked for again is not a new one and costs nothing. At the most,
    the table holds ``max_short_links`` x ``MAX_LINK_PARAMS`` characters (250 MB by default)."""

    short_links_per_hour: int = 60
    max_short_links: int = 10_000

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> LinkLimits:
        """The limits, with any ``NDCG_LAB_SHORT_LINKS_PER_HOUR``-style variable applied (whole numbers of 1 or
        more; anything else is an ``InputError``)."""
        environ = os.environ if environ is None else environ
        values: dict[str, int] = {}
        for field in fields(cls):
            name = f"NDCG_LAB_{field.name.upper()}"
            if name in environ:
                try:
                    values[field.name] = int(environ[name])
                except ValueError:
                    raise InputError("room.setting", name=name, value=shown(environ[name])) from None
                if values[field.name] < 1:
                    raise InputError("room.setting", name=name, value=shown(environ[name]))
        return cls(**values)


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
# Who made a new link when, for the hourly limit: rows older than an hour are forgotten.
link_makers = sa.Table(
    "short_link_makers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("client", sa.String(64), nullable=False),
    sa.Column("made_at", sa.Float, nullable=False),
    sa.Index("ix_short_link_makers_client_made_at", "client", "made_at"),
)


class ShortLinks:
    """Saving a page's link parameters under a code and finding them again; the table is created on first use."""

    def __init__(self, db: Database, *, keep_days: float = KEEP_DAYS, limits: LinkLimits = LinkLimits()) -> None:
        self.db = db
        self.keep_days = keep_days
        self.limits = limits
        self._create()

    @resilient
    def _create(self) -> None:
        metadata.create_all(self.db.engine, checkfirst=True)

    @resilient
    def save(self, page: str, params: Mapping[str, str], client: str = "local") -> str:
        """A short code for a page's link parameters; the same parameters always get the same code. A new code is
        refused (``go.too_many``) when ``client`` (an address) has made ``short_links_per_hour`` in the last hour;
        beyond ``max_short_links`` the links unused for their days, then the least lately used, are deleted."""
        if page not in SHORT_LINK_PAGES:
            raise InputError("go.page", value=shown(page), choices=", ".join(SHORT_LINK_PAGES))
        text = json.dumps(dict(sorted(params.items())), ensure_ascii=False, separators=(",", ":"))
        if len(text) > MAX_LINK_PARAMS:
            raise InputError("link.too_long", count=len(text), limit=MAX_LINK_PARAMS)
        digest = hashlib.sha256(f"{page}\n{text}".encode()).hexdigest()
        client = client[:64]
        now = self.db.clock()
        with self.db.write() as conn:
            found = conn.execute(sa.select(short_links.c.code).where(short_links.c.digest == digest)).scalar()
            if found is None:
                conn.execute(sa.delete(link_makers).where(link_makers.c.made_at <= now - HOUR))
                made = conn.execute(
                    sa.select(sa.func.count()).select_from(link_makers).where(link_makers.c.client == client)
                ).scalar_one()
                if made >= self.limits.short_links_per_hour:
                    raise InputError("go.too_many", count=self.limits.short_links_per_hour)
                conn.execute(link_makers.insert().values(client=client, made_at=now))
        code = code_for(self.db, short_links, "short-link", digest, page=page, params=text)
        if found is None:
            self._make_room(code)
        return code

    def _make_room(self, kept: str) -> None:
        """Delete links beyond ``max_short_links``: those unused for their days first, then the least lately used
        (never ``kept``, the one just made)."""
        with self.db.write() as conn:
            count = conn.execute(sa.select(sa.func.count()).select_from(short_links)).scalar_one()
            extra = count - self.limits.max_short_links
            if extra <= 0:
                return
            cutoff = self.db.clock() - self.keep_days * 86400
            extra -= conn.execute(sa.delete(short_links).where(short_links.c.used_at < cutoff)).rowcount
            if extra > 0:
                oldest = (
                    sa.select(short_links.c.code)
                    .where(short_links.c.code != kept)
                    .order_by(short_links.c.used_at, short_links.c.created_at)
                    .limit(extra)
                )
                conn.execute(sa.delete(short_links).where(short_links.c.code.in_(oldest.scalar_subquery())))

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
