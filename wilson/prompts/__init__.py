"""Prompts: the system prompt Wilson assembles for every run (`wilson.prompts.system`)."""
