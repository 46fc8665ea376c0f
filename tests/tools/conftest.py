"""Every tool is registered before any test in this folder asks the registry about one."""

from wilson.tools import load_tools

load_tools()
