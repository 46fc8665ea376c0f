"""Wilson's model facade: one interface over every supported provider (see `facade.LLM`).

Importing this package must not import litellm (seconds of start-up); it is loaded on first use.
"""

from wilson.llm.errors import ErrorKind, LLMError
from wilson.llm.facade import LLM, Completion, ToolCall
from wilson.llm.providers import PROVIDERS, Provider
from wilson.llm.retry import RetryPolicy

__all__ = ["LLM", "PROVIDERS", "Completion", "ErrorKind", "LLMError", "Provider", "RetryPolicy", "ToolCall"]
