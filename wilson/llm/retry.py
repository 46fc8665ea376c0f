"""How long to wait between attempts: exponential backoff with full jitter, or what the server asked.

Full jitter (a uniform draw below the exponential cap) spreads out clients that failed together, so
they do not all come back at the same instant and trip the rate limit again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """Limits for one model's attempts; the next fallback model starts with a fresh budget.

    `total_timeout` bounds the time spent retrying: no new attempt and no wait starts past it.
    `request_timeout` bounds each single request (a long generation may legitimately take longer
    than the retry budget, so the two are independent).
    """

    attempts: int = 4
    base_delay: float = 0.5
    max_delay: float = 8.0
    total_timeout: float = 60.0
    request_timeout: float = 120.0

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based)."""
        if retry_after is not None:
            return min(retry_after, self.max_delay)
        return random.uniform(0.0, min(self.max_delay, self.base_delay * 2 ** (attempt - 1)))
