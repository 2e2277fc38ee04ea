"""How numbers and messages are written on screen: one place, so every page rounds and escapes the same way."""

import re
from collections.abc import Iterable

DECIMALS = 4  # trec_eval prints 4 decimals; the app shows the same


def metric_text(value: float, decimals: int = DECIMALS) -> str:
    """A figure as shown in the app's headline metrics, e.g. ``0.7850``."""
    return f"{value:.{decimals}f}"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:])")


_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto|www|@)")
WORD_JOINER = "\u2060"
_SHORTCODE = re.compile(r"\\:(?=\S)")


def md_escape(text: object) -> str:
    """User text (a label, a file name, a quoted line) made inert inside Markdown: every character Markdown,
    its LaTeX or its link syntax would act on is backslash-escaped, so it shows exactly as typed.

    GFM also turns bare URLs, www. names and e-mail addresses into links after escapes are resolved,
    so an invisible word joiner is put after each such start to keep them plain text. Streamlit draws its
    shortcodes (``:material/home:``, ``:streamlit:``, an emoji's ``:smile:``) even from escaped colons, so a word
    joiner follows every colon that something follows too.
    """
    escaped = _AUTOLINK.sub(lambda m: m.group(1) + WORD_JOINER, _MARKDOWN_SPECIAL.sub(r"\\\1", str(text)))
    return _SHORTCODE.sub("\\\\:" + WORD_JOINER, escaped)


def paragraphs(messages: Iterable[str]) -> str:
    """Messages each in a paragraph of its own (Markdown's blank line), so none runs into the next; empty ones
    left out."""
    return "\n\n".join(m for m in messages if m)


def sentence(message: str) -> str:
    """A core error message as a sentence on screen: Markdown-escaped (it may quote the user's input),
    and a plain first word capitalised (not a file name)."""
    first = message.split(" ", 1)[0]
    # A word, not a symbol such as k or a file name, takes a capital.
    if first.isascii() and first.isalpha() and first.islower() and len(first) > 1:
        message = message[:1].upper() + message[1:]
    return md_escape(message)
