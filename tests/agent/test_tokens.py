"""Token counting: offline from litellm's bundled files, cached per message, whole request."""

from __future__ import annotations

import os
import subprocess
import sys

from wilson.agent.context import token_limit
from wilson.agent.tokens import TokenCounter, bundled_tokenizer_dir


def test_tokenizers_load_with_the_network_off():
    code = (
        "from wilson.agent.tokens import TokenCounter\n"
        "import sys\n"
        "print(TokenCounter('o200k_base').text('hello world'), TokenCounter('cl100k_base').text('hello world'))\n"
        "assert 'litellm' not in sys.modules\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TIKTOKEN_CACHE_DIR"}
    env.update(HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "2"]
    assert (bundled_tokenizer_dir() / "fb374d419588a4632f3f557e76b4b70aebbca790").is_file()  # o200k_base


def test_whole_request_is_counted_and_cached_by_message():
    counter = TokenCounter("cl100k_base")
    messages = [{"role": "system", "content": "You are Wilson."}, {"role": "user", "content": "hi"}]
    tools = [{"type": "function", "function": {"name": "t", "description": "d", "parameters": {}}}]
    without, with_tools = counter.request(messages), counter.request(messages, tools)
    assert with_tools > without > counter.text("You are Wilson.")
    assert counter.upper_bound(messages, tools) >= with_tools
    messages.append({"role": "assistant", "content": "hello"})
    assert counter.request(messages) > without


def test_the_limit_never_exceeds_80_percent_of_the_window():
    assert token_limit(100_000, 128_000) == 100_000
    assert token_limit(100_000, 32_000) == 25_600
    assert token_limit(100_000, None) == 100_000
