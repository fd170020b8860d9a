"""Keyword arguments of the environments, checked and sent to the library as JSON."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from . import _build_info, _native
from ._errors import setting_error



_table: dict[str, dict[str, Any]] | None = None


def settings_table() -> dict[str, dict[str, Any]]:
    """The settings table as the library declares it (`abrlab_settings_json`), by keyword:
    kind, choices, default, range, help (docs/settings.md). Read at its first use, which loads
    the library; `import abrlab` reads nothing."""
    global _table
    if _table is None:
        text = _native.LIB.abrlab_settings_json().decode("utf-8")
        _table = {entry["keyword"]: entry for entry in json.loads(text)}
    return _table


def __getattr__(name: str) -> Any:
    """`SETTINGS` (keyword -> its declaration) and `OPTION_NAMES`, read from the library when first asked."""
    if name == "SETTINGS":
        return settings_table()
    if name == "OPTION_NAMES":
        return tuple(settings_table())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def keywords_doc() -> str:
    """Every keyword with its kind, default and help, for `help(abrlab.ABREnv)`."""
    lines = ["", "Keyword arguments (the settings table, docs/settings.md):", ""]
    for keyword, entry in settings_table().items():
        kind = entry["kind"] if not entry["choices"] else " | ".join(entry["choices"])
        limits = f"; {entry['range']}" if entry["range"] else ""
        lines.append(f"    {keyword} ({kind}; default {entry['default_text']}{limits}): {entry['help']}")
    return "\n".join(lines) + "\n"


def repository_file(*parts: str) -> Path | None:
    """A file of the repository the package was built from, when it is still there."""
    root = _build_info.REPOSITORY
    if root is None:
        # Run from the source tree (PYTHONPATH=python): the repository is two folders up.
        source = Path(__file__).resolve().parents[2]
        if not (source / "Package.swift").is_file():
            return None
        root = str(source)
    path = Path(root, *parts)
    return path if path.exists() else None


def _kind_error(name: str, value: Any) -> Exception:
    """A value of the wrong kind, in the library's words for it (`abrlab compare`'s for the same
    mistake): what the table says the setting takes, and the value given."""
    return setting_error(name, f"{name}: takes {settings_table()[name]['takes']}, not {value!r}")


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "__float__"):
        raise _kind_error(name, value)
    number = float(value)
    if not math.isfinite(number):
        # JSON has no NaN or infinity: refused here, in the words of the library's range check.
        limits = settings_table()[name]["range"] or "a finite number"
        raise setting_error(name, f"{name}: must be {limits}")
    return number


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise _kind_error(name, value)
    count = int(value.__index__())
    # The library reads integers as 64-bit; past that its own range check would never see the value.
    if not -2**63 <= count < 2**63:
        raise setting_error(name, f"{name}: takes an integer from -2^63 to 2^63 - 1 (and within {name}'s own range), not {count}")
    return count


def _path(value: Any) -> str:
    return os.fspath(value) if isinstance(value, os.PathLike) else value


def _params(value: Any) -> dict[str, Any] | list[str]:
    """Strategy parameters: a dict {"robust_mpc.horizon": 3}, sent typed as JSON (the library
    reads each value as `--param` reads its text), or `--param`'s own "id.key=value" strings."""
    if isinstance(value, dict):
        typed: dict[str, Any] = {}
        for key, setting in value.items():
            if not isinstance(key, str) or "." not in key:
                raise setting_error("params", f"params: keys are 'strategy_id.key', not {key!r}")
            if hasattr(setting, "item") and not isinstance(setting, (str, bytes)):
                setting = setting.item()  # a numpy scalar, as its Python value
            if isinstance(setting, float) and not math.isfinite(setting) or not isinstance(setting, (bool, int, float, str)):
                raise setting_error("params", f"params: {key} takes one number, string or True/False, not {setting!r}")
            typed[key] = setting
        return typed
    items = [value] if isinstance(value, str) else list(value)
    if not all(isinstance(item, str) and "=" in item for item in items):
        raise setting_error("params", f"params: takes a dict or 'id.key=value' strings, not {value!r}")
    return items


def encode(options: dict[str, Any]) -> bytes:
    """The options as the library's JSON, each checked by its declared kind (the library checks
    ranges and names the keyword), with the repository's video and traces as defaults."""
    table = settings_table()
    unknown = sorted(set(options) - set(table))
    if unknown:
        raise TypeError(f"unknown option {unknown[0]!r}; options are {', '.join(table)}")
    encoded: dict[str, Any] = {}
    for name, value in options.items():
        if value is None:
            continue
        kind = table[name]["kind"]
        if name == "params":
            encoded[name] = _params(value)
        elif kind == "number":
            encoded[name] = _number(name, value)
        elif kind == "integer":
            encoded[name] = _count(name, value)
        elif kind == "seed":
            seed = _count(name, value)
            if not 0 <= seed < 2**64:
                raise _kind_error(name, seed)
            encoded[name] = seed
        elif kind == "flag":
            if not isinstance(value, bool):
                raise _kind_error(name, value)
            encoded[name] = value
        elif kind == "numbers":
            if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
                raise _kind_error(name, value)
            encoded[name] = [_number(name, item) for item in value]
        elif kind == "texts":
            items = [value] if isinstance(value, str) else list(value)
            if not items or not all(isinstance(item, str) for item in items):
                raise _kind_error(name, value)
            encoded[name] = items
        elif kind == "paths":
            items = [value] if isinstance(value, (str, os.PathLike)) else list(value)
            paths = [_path(item) for item in items]
            if not paths or not all(isinstance(item, str) for item in paths):
                raise _kind_error(name, value)
            encoded[name] = paths
        else:
            text = _path(value)
            if not isinstance(text, str):
                raise _kind_error(name, value)
            encoded[name] = text
    if "video" not in encoded:
        video = repository_file("Traces", "video.json")
        if video is None:
            raise setting_error("video", "no video given, and the repository's Traces/video.json is not there; pass video=")
        encoded["video"] = str(video)
    if "traces" not in encoded:
        traces = repository_file("Traces", "default")
        if traces is None:
            raise setting_error("traces", "no traces given, and the repository's Traces/default is not there; pass traces=")
        encoded["traces"] = [str(traces)]
    return json.dumps(encoded).encode("utf-8")
