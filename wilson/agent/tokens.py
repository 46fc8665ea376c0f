"""Token counting that never touches the network, cheap enough to run before every model call.

tiktoken downloads its BPE files on first use and caches them under `TIKTOKEN_CACHE_DIR`, keyed
by the sha1 of the download URL. litellm ships exactly those cache files (cl100k_base and
o200k_base, named by that sha1) in `litellm_core_utils/tokenizers/`, so pointing the cache there
makes counting work offline. The directory is found through the import system's spec, without
importing litellm (which costs seconds).

Counting is cached per message (by identity, then by a hash of its canonical JSON), so in a run
only the messages new since the last call are encoded; and a request whose UTF-8 size is already
under the limit needs no tokenizer at all (a token is never shorter than a byte), which keeps the
tokenizer's one-off load (a second or two) out of short runs.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

# OpenAI's documented per-message framing overhead (role, separators) and per-reply priming.
_PER_MESSAGE = 3
_PER_REPLY = 3
_CACHE_LIMIT = 4096


def bundled_tokenizer_dir() -> Path | None:
    """litellm's directory of tiktoken cache files, or None if litellm is not installed."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "litellm_core_utils" / "tokenizers"
        if candidate.is_dir():
            return candidate
    return None


def _use_bundled_cache() -> None:
    """Point tiktoken at litellm's files unless the user chose a cache directory themselves."""
    if os.environ.get("TIKTOKEN_CACHE_DIR"):
        return
    found = bundled_tokenizer_dir()
    if found is not None:
        os.environ["TIKTOKEN_CACHE_DIR"] = str(found)


@lru_cache(maxsize=None)
def encoder(encoding: str) -> Any:
    """The tiktoken encoder for `encoding`, loaded once per process."""
    _use_bundled_cache()
    import tiktoken

    return tiktoken.get_encoding(encoding)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


class _Measured:
    """A message's canonical text size, and its token count once something needed it."""

    __slots__ = ("ref", "text", "bytes", "tokens")

    def __init__(self, ref: Any, text: str) -> None:
        self.ref, self.text, self.bytes, self.tokens = ref, text, len(text.encode()), None


class TokenCounter:
    """Counts a whole request (messages plus tool schemas), remembering what it already counted.

    Messages are treated as immutable once counted (the loop replaces a message rather than
    editing it), so a message seen again is recognised by identity in a dict lookup; the entry
    holds a reference, so the id cannot be reused while it is cached. New objects with the same
    content (a resumed session's history) fall back to a content hash.
    """

    def __init__(self, encoding: str = "cl100k_base") -> None:
        self.encoding = encoding
        self._by_id: dict[int, _Measured] = {}
        self._by_hash: dict[bytes, int] = {}

    def text(self, text: str) -> int:
        return len(encoder(self.encoding).encode(text, disallowed_special=()))

    def _measure(self, value: Any) -> _Measured:
        found = self._by_id.get(id(value))
        if found is not None and found.ref is value:
            return found
        if len(self._by_id) >= _CACHE_LIMIT:
            self._by_id.clear()
        found = self._by_id[id(value)] = _Measured(value, _canonical(value))
        return found

    def _tokens(self, measured: _Measured) -> int:
        if measured.tokens is None:
            key = hashlib.blake2b(measured.text.encode(), digest_size=16).digest()
            count = self._by_hash.get(key)
            if count is None:
                if len(self._by_hash) >= _CACHE_LIMIT:
                    self._by_hash.clear()
                count = self._by_hash[key] = self.text(measured.text)
            measured.tokens = count
        return measured.tokens

    def _parts(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> list[_Measured]:
        return [self._measure(m) for m in messages] + ([self._measure(tools)] if tools else [])

    def upper_bound(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> int:
        """A ceiling on `request()` without the tokenizer: no token is shorter than one byte."""
        return _PER_REPLY + sum(p.bytes for p in self._parts(messages, tools)) + _PER_MESSAGE * len(messages)

    def request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> int:
        """Tokens the whole request will take: every message, the tool schemas, the reply priming."""
        return _PER_REPLY + sum(self._tokens(p) for p in self._parts(messages, tools)) + _PER_MESSAGE * len(messages)
