"""`wilson skills`: which playbooks the agent can load, where each came from, and what is broken."""

from __future__ import annotations

import click

from wilson.cli.output import print_json


@click.command("skills")
@click.option("--json", "as_json", is_flag=True, help="Print the skills and warnings as JSON.")
def skills_command(as_json: bool) -> None:
    """List the skills (built-in, user, project), which one won each name, and any warnings."""
    from wilson import skills
    from wilson.tools import load_tools

    discovery = skills.discover(known_tools=set(load_tools()))
    listed = [discovery.skills[name] for name in sorted(discovery.skills)]
    if as_json:
        print_json({
            "skills": [
                {
                    "name": s.name,
                    "description": s.description,
                    "when_to_use": s.when_to_use,
                    "source": s.source,
                    "path": str(s.path),
                    "overrides": [str(p) for p in s.overrides],
                    "tools": s.tools,
                    "arguments": [vars(a) for a in s.arguments],
                }
                for s in listed
            ],
            "warnings": discovery.warnings,
        })
        return
    if not listed:
        click.echo("No skills found.")
    for skill in listed:
        click.echo(f"{skill.name}  [{skill.source}] {skill.path}")
        click.echo(f"    {skill.description}")
        if skill.arguments:
            click.echo("    arguments: " + ", ".join(
                f"{a.name}{' (required)' if a.required else ''}" for a in skill.arguments))
        for overridden in skill.overrides:
            click.echo(f"    overrides {overridden}")
    if discovery.warnings:
        click.echo(f"\n{len(discovery.warnings)} warning(s):", err=True)
        for warning in discovery.warnings:
            click.echo(f"  {warning}", err=True)
