"""The agent: the loop that answers a question with tool calls, and the events it reports.

Kept import-light on purpose: the TUI imports `wilson.agent.events` without paying for litellm.
Import the loop itself from `wilson.agent.loop`.
"""
