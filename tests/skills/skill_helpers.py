"""Writing SKILL.md files into the three places discovery looks, for the skill tests."""

from __future__ import annotations

from pathlib import Path

import yaml

from wilson import paths


def user_skills() -> Path:
    return paths.data_dir() / "skills"


def project_skills(cwd: Path) -> Path:
    return cwd / ".wilson" / "skills"


def write_skill(root: Path, slug: str, meta: dict | str | None = None, body: str = "1. Do the thing.\n") -> Path:
    """A skill folder under `root`; `meta` is a mapping (dumped as YAML) or raw frontmatter text."""
    if meta is None:
        meta = {"name": slug, "description": f"the {slug} skill"}
    front = meta if isinstance(meta, str) else yaml.safe_dump(meta, sort_keys=False)
    path = root / slug / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{front}---\n{body}", encoding="utf-8")
    return path
