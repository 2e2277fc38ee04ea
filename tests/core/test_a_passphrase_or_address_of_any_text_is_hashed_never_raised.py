"""What a client sends, and what a server is set up with, are hashed as UTF-8 whatever they hold
(``ndcg_core.classroom.clients``): a passphrase typed on a page or set in the environment with a character UTF-8
cannot encode (a lone surrogate: JSON's ``"\\ud800"``, or a byte Python's environment could not decode) is compared,
never an exception; and a client's address is stored as the first 32 hex digits of its SHA-256, the key earlier
versions stored, so that the starts and failures a database already holds keep counting."""

import hashlib

from ndcg_core.classroom import clients

LONE = "\ud800"  # a lone surrogate: a Python str may hold it, UTF-8 cannot encode it


def test_a_passphrase_given_with_a_character_utf8_cannot_encode_is_wrong_not_an_error():
    assert clients.passphrase_matches(f"open {LONE}", "open sesame") is False
    # Replaced by "?" before hashing: the same text with "?" in its place matches.
    assert clients.passphrase_matches(f"open {LONE}", "open ?") is True


def test_a_passphrase_set_with_a_character_utf8_cannot_encode_is_compared_not_an_error():
    # os.environ keeps an undecodable byte of the environment as a lone surrogate ("surrogateescape").
    assert clients.passphrase_matches("open sesame", f"open {LONE}") is False
    assert clients.passphrase_matches("open ?", f"open {LONE}") is True


def test_a_client_s_address_is_kept_as_the_first_32_hex_digits_of_its_sha256():
    for address in ("203.0.113.5", "2001:db8::1", "local"):
        assert clients.source_key(address) == hashlib.sha256(address.encode()).hexdigest()[:32]
    assert clients.source_key(f"a{LONE}") == hashlib.sha256(b"a?").hexdigest()[:32]
