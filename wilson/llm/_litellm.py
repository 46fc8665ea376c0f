"""The one place litellm is imported, lazily and configured to stay quiet and offline.

Importing litellm takes seconds, so `wilson.llm` defers it to the first model call. Before the
import, litellm is told to use its bundled copies of the data it would otherwise fetch from GitHub
(the model-cost map at import, Anthropic beta headers on the first Claude call) and not to load a
`.env` file from whatever directory Wilson was started in. After it, telemetry and every logging
callback are switched off: Wilson's conversations (bank transactions) must not leave the machine
except to the provider the user chose. litellm's own log lines are cut to errors because Wilson
reports failures itself and stray log lines or warnings would scribble over the TUI.

Emptying the callback lists is not enough to make a call cheap: after every successful
`acompletion` litellm still schedules its async success handler, which copies the whole prompt
(scanning every string for base64), prices the call again and builds its standard logging
payload, only to hand it to no callback. With a long agent prompt that is milliseconds of CPU
per model call, on Wilson's event loop. litellm 1.106 has no public switch for it, so
`unlogged()` marks Wilson's calls the way litellm marks its own nested sub-calls (a context
variable in `litellm._internal_context`), which skips the success and failure logging and
nothing else: the request, the response, its usage and the raised errors are untouched, and
Wilson prices the call itself (`facade._cost`). `tests/llm` checks that no logging work is left
behind, so a litellm upgrade that moves the marker is noticed rather than silently slower.
"""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from types import ModuleType

_OFFLINE_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS": "True",
    "LITELLM_LOCAL_BLOG_POSTS": "True",
    "LITELLM_LOCAL_AUTOROUTER_PRESETS": "True",
    "LITELLM_MODE": "PRODUCTION",  # "DEV" (the default) loads ./.env into os.environ
}


@cache
def litellm() -> ModuleType:
    for name, value in _OFFLINE_ENV.items():
        os.environ.setdefault(name, value)
    import litellm as module

    module.suppress_debug_info = True
    module.success_callback = []
    module.failure_callback = []
    module.callbacks = []
    module.input_callback = []
    module._async_success_callback = []
    module._async_failure_callback = []
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):
        logging.getLogger(name).setLevel(logging.ERROR)
    # pydantic complains about a litellm type on the first call; it is litellm's to fix, not the user's.
    warnings.filterwarnings("ignore", message=r".*is using the `ReadOnly` qualifier", category=UserWarning)
    return module


@contextmanager
def unlogged() -> Iterator[None]:
    """Run the litellm calls inside the block without litellm's post-call logging.

    The flag is a context variable, so it covers exactly the calls awaited in this block (and any
    sub-calls litellm makes for them) and nothing else in the process. Should a litellm release
    move it, calls go on being made as before, only with litellm's logging overhead back.
    """
    flag = _internal_call_flag()
    if flag is None:
        yield
        return
    token = flag.set(True)
    try:
        yield
    finally:
        flag.reset(token)


@cache
def _internal_call_flag() -> ContextVar[bool] | None:
    """litellm's marker for calls whose success is not logged, or None if this litellm has none."""
    litellm()
    try:
        from litellm._internal_context import is_internal_call
    except ImportError:
        return None
    return is_internal_call if isinstance(is_internal_call, ContextVar) else None
