"""The tool registry: each tool is a plain function plus a JSON schema built from its signature.

The flags that change how the agent loop treats a tool (read-only, changes data, needs approval)
live here on the registration, so the loop never special-cases a tool by name.
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Callable

if typing.TYPE_CHECKING:
    from wilson.ledger import Ledger


class ToolError(Exception):
    """A problem the model can act on: bad arguments, an unknown account, nothing to do."""

    def __init__(self, message: str, kind: str = "validation", recoverable: bool = True, **details: Any):
        super().__init__(message)
        self.kind, self.recoverable, self.details = kind, recoverable, details

    def as_result(self) -> dict:
        return {"error": {"type": self.kind, "message": str(self), "recoverable": self.recoverable, **self.details}}


@dataclass
class ToolContext:
    """What a tool may use: the ledger, today's (local) date, the model for nested calls, run state."""

    ledger: "Ledger"
    today: date = field(default_factory=date.today)
    model: str | None = None
    run: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    func: Callable[..., dict]
    parameters: dict
    read_only: bool = True
    changes_data: bool = False
    needs_approval: bool = False

    def openai_schema(self) -> dict:
        return {"type": "function", "function": {"name": self.name, "description": self.description, "parameters": self.parameters}}


REGISTRY: dict[str, Tool] = {}


def tool(
    *, description: str, name: str | None = None, read_only: bool = True, changes_data: bool = False,
    needs_approval: bool = False,
) -> Callable[[Callable[..., dict]], Callable[..., dict]]:
    """Register a tool. Its first parameter is the `ToolContext`; the rest become the schema.

    Describe a parameter with `Annotated[type, "description"]`. Supported types: str, int, bool,
    Decimal (a decimal amount), date (an ISO date), Literal[...] (an enum), list[...] and `X | None`.
    """

    def register(func: Callable[..., dict]) -> Callable[..., dict]:
        tool_name = name or func.__name__
        if tool_name in REGISTRY:
            raise ValueError(f"tool {tool_name!r} registered twice")
        REGISTRY[tool_name] = Tool(
            name=tool_name,
            description=inspect.cleandoc(description),
            func=func,
            parameters=schema_for(func),
            read_only=read_only and not changes_data,
            changes_data=changes_data,
            needs_approval=needs_approval,
        )
        return func

    return register


def schema_for(func: Callable[..., Any]) -> dict:
    hints = typing.get_type_hints(func, include_extras=True)
    properties, required = {}, []
    for index, param in enumerate(inspect.signature(func).parameters.values()):
        if index == 0:
            continue
        prop = _json_type(hints[param.name])
        if param.default is inspect.Parameter.empty:
            required.append(param.name)
        elif param.default is not None:
            prop["default"] = _jsonable(param.default)
        properties[param.name] = prop
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def _json_type(hint: Any) -> dict:
    description = None
    if typing.get_origin(hint) is typing.Annotated:
        hint, *extras = typing.get_args(hint)
        description = next((e for e in extras if isinstance(e, str)), None)
    prop = _plain_json_type(hint)
    if description:
        prop["description"] = description
    return prop


def _plain_json_type(hint: Any) -> dict:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _plain_json_type(options[0]) if len(options) == 1 else {"anyOf": [_plain_json_type(a) for a in options]}
    if origin is typing.Literal:
        values = list(typing.get_args(hint))
        return {"type": "string" if all(isinstance(v, str) for v in values) else "integer", "enum": values}
    if origin is list:
        (item,) = typing.get_args(hint) or (str,)
        return {"type": "array", "items": _plain_json_type(item)}
    if origin is dict:
        return {"type": "object"}
    simple = {
        str: {"type": "string"},
        int: {"type": "integer"},
        bool: {"type": "boolean"},
        Decimal: {"type": ["number", "string"], "description": "a decimal amount, e.g. 12.50"},
        date: {"type": "string", "format": "date", "description": "an ISO date, YYYY-MM-DD"},
    }
    if hint in simple:
        return dict(simple[hint])
    raise TypeError(f"unsupported tool parameter type {hint!r}")


def _jsonable(value: Any) -> Any:
    if isinstance(value, (Decimal, date)):
        return str(value)
    return value


def _decimal_argument(value: object, param: str) -> Decimal:
    """An amount argument, exactly: a JSON number, or text with a decimal point and only well-placed
    thousands commas (`1,234.50`). `1,5` or `1.000,50` is refused, not read as 15 or 1.0005."""
    from wilson.money import AmountError, parse_amount

    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        amount = Decimal(str(value))
    else:
        try:
            amount = parse_amount(str(value), ".")
        except (AmountError, InvalidOperation):
            raise ToolError(f"{param}: {value!r} is not a decimal amount; write it like 1234.50") from None
    if not amount.is_finite():
        raise ToolError(f"{param}: {value!r} is not a finite amount")
    return amount


def _coerce(value: Any, hint: Any, param: str) -> Any:
    """Turn JSON values into the Python types the signature promises (Decimal and date)."""
    if typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        hint = options[0] if len(options) == 1 else hint
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint) or (str,)
        return [_coerce(v, item, param) for v in value]
    if hint is Decimal:
        return _decimal_argument(value, param)
    if hint is date:
        try:
            return date.fromisoformat(str(value))
        except ValueError:
            raise ToolError(f"{param}: {value!r} is not an ISO date (YYYY-MM-DD)") from None
    return value


def run_tool(name: str, args: dict | None, ctx: ToolContext) -> dict:
    """Run a tool by name; every failure comes back as a structured `{"error": ...}` result."""
    found = REGISTRY.get(name)
    if found is None:
        return ToolError(
            f"there is no tool named {name!r}", kind="unknown_tool", available=sorted(REGISTRY)
        ).as_result()
    args = dict(args or {})
    problem = validate_args(found, args)
    if problem:
        return ToolError(problem).as_result()
    hints = typing.get_type_hints(found.func, include_extras=True)
    try:
        kwargs = {key: _coerce(value, hints[key], key) for key, value in args.items()}
        return found.func(ctx, **kwargs)
    except ToolError as exc:
        return exc.as_result()
    except Exception as exc:  # a tool bug must not end the run: the model hears about it
        return ToolError(f"{name} failed: {type(exc).__name__}: {exc}", kind="internal", recoverable=False).as_result()


def validate_args(found: Tool, args: dict) -> str | None:
    """A one-line description of what is wrong with the arguments, or None."""
    validator = _VALIDATORS.get(found.name)
    if validator is None or validator.schema is not found.parameters:
        validator = _VALIDATORS[found.name] = _validator(found.parameters)
    errors = sorted(validator.iter_errors(args), key=lambda e: list(e.path))
    if not errors:
        return None
    first = errors[0]
    where = ".".join(str(p) for p in first.path)
    return f"invalid arguments for {found.name}: {where + ': ' if where else ''}{first.message}"


_VALIDATORS: dict[str, Any] = {}  # building a validator costs ~2 ms; a tool's schema never changes


def _validator(schema: dict) -> Any:
    """A JSON-schema validator that accepts `Decimal` as a number (arguments are parsed exactly)."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "number", lambda _, value: isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)
    )
    return validators.extend(Draft202012Validator, type_checker=checker)(schema)
