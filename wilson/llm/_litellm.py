"""The one place litellm is imported, lazily and configured to stay quiet and offline.

Importing litellm takes seconds, so `wilson.llm` defers it to the first model call. Before the
import, litellm is told to use its bundled copies of the data it would otherwise fetch from GitHub
(the model-cost map at import, Anthropic beta headers on the first Claude call) and not to load a
`.env` file from whatever directory Wilson was started in. After it, telemetry and every logging
callback are switched off: Wilson's conversations (bank transactions) must not leave the machine
except to the provider the user chose. litellm's own log lines are cut to errors because Wilson
reports failures itself and stray log lines or warnings would scribble over the TUI.
"""

from __future__ import annotations

import logging
import os
import warnings
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
