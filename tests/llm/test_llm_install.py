"""Packaging facts the facade depends on, checked in fresh interpreters with a clean environment."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

from packaging.requirements import Requirement

from wilson.llm._litellm import litellm

COMPROMISED_LITELLM = {"1.82.7", "1.82.8"}

# Runs in a child with no provider settings: refuses any connection that is not to 127.0.0.1,
# then makes one tool-calling request through the real litellm stack.
CHILD = r"""
import asyncio, json, os, socket, sys

import wilson.llm
assert "litellm" not in sys.modules, "import wilson.llm imported litellm"

outside = []
real_connect = socket.socket.connect
def guarded_connect(sock, address):
    if isinstance(address, tuple) and address[0] not in ("127.0.0.1", "::1", "localhost"):
        outside.append(str(address))
        raise OSError("test: no network")
    return real_connect(sock, address)
socket.socket.connect = guarded_connect
real_getaddrinfo = socket.getaddrinfo
def guarded_getaddrinfo(host, *args, **kwargs):
    if host not in ("127.0.0.1", "::1", "localhost"):
        outside.append(str(host))
        raise socket.gaierror("test: no network")
    return real_getaddrinfo(host, *args, **kwargs)
socket.getaddrinfo = guarded_getaddrinfo

tools = [{"type": "function", "function": {"name": "search_transactions", "description": "Search.",
          "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}}]
completion = asyncio.run(wilson.llm.LLM(sys.argv[1]).complete([{"role": "user", "content": "coffee?"}], tools))
print(json.dumps({
    "calls": [[c.name, json.loads(c.arguments)] for c in completion.tool_calls],
    "outside": outside,
    "dotenv_loaded": "WILSON_DOTENV_PROBE" in os.environ,
    "cost_map_local": os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP"),
}))
"""


def clean_env(**extra: str) -> dict[str, str]:
    keep = {name: os.environ[name] for name in ("PATH", "SYSTEMROOT", "LANG") if name in os.environ}
    return {**keep, **extra}


def test_import_does_not_load_litellm():
    result = subprocess.run(
        [sys.executable, "-c", "import wilson.llm, sys; assert 'litellm' not in sys.modules"],
        env=clean_env(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_tool_call_through_real_litellm_in_a_clean_process(llm_server, tmp_path: Path):
    (tmp_path / ".env").write_text("WILSON_DOTENV_PROBE=1\n")
    llm_server.reply_tool_calls([("search_transactions", {"query": "coffee"})])
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, "gpt-4o-mini"],
        env=clean_env(HOME=str(tmp_path), OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=llm_server.url + "/v1"),
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    litellm()  # the rest of this module needs litellm imported here too; overlap it with the child's import
    out, err = child.communicate(timeout=180)

    assert child.returncode == 0, err[-2000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result == {
        "calls": [["search_transactions", {"query": "coffee"}]],
        "outside": [],
        "dotenv_loaded": False,
        "cost_map_local": "True",
    }
    assert llm_server.requests[0].tool_names == ["search_transactions"]


def test_mcp_is_a_declared_dependency():
    names = {Requirement(r).name for r in importlib.metadata.requires("wilson") or []}
    assert "mcp" in names
    importlib.metadata.version("mcp")


def test_litellm_is_the_pinned_release():
    installed = importlib.metadata.version("litellm")
    assert installed not in COMPROMISED_LITELLM
    pins = [Requirement(r) for r in importlib.metadata.requires("wilson") or [] if r.startswith("litellm")]
    assert [str(p.specifier) for p in pins] == ["==1.106.0"]
    assert installed == "1.106.0"
