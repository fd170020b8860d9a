"""The package's exceptions, defined without the library, so `import abrlab` loads nothing native.

Each engine failure the library reports has a subject (docs/python.md, "Errors"): a setting, an
input, a strategy, a limit. Its class says which, and subclasses what the package raised before
the subjects were told apart, so `except ValueError` and `except RuntimeError` still catch them.
`error.detail` is the library's JSON detail as a dict (`{"subject": "setting", "setting":
"first_level", "settings": ["first_level"]}`), empty where it has none.
"""

from __future__ import annotations

from typing import Any

from gymnasium.error import ResetNeeded


class StepBeforeReset(ResetNeeded, ValueError):
    """A step of a session not in an episode, before its first `reset` or after its episode
    ended: Gymnasium's `ResetNeeded` (what its OrderEnforcing wrapper raises), and a ValueError
    as every other refused call."""


class _Detailed:
    """What the library said beside the message: `detail`, a dict."""

    detail: dict[str, Any] = {}

    @classmethod
    def with_detail(cls, message: str, detail: dict[str, Any] | None = None):
        error = cls(message)
        error.detail = dict(detail or {})
        return error


class _Located(_Detailed):
    """A failure the library places in a file: `file`, and `line` where one applies."""

    @property
    def file(self) -> str | None:
        return self.detail.get("file")

    @property
    def line(self) -> int | None:
        return self.detail.get("line")


class SettingError(_Detailed, ValueError):
    """A keyword's value refused: out of its range, of the wrong kind, not one of its choices, or
    unable to play this video (`first_level` past the ladder, `segments` past the video's end),
    alone or with other settings. `setting` is the keyword (the first, when several are wrong only
    together), `settings` all of them. The message is `abrlab compare`'s for the same value, the
    setting named by its keyword instead of its flag. A ValueError."""

    @property
    def setting(self) -> str | None:
        return self.detail.get("setting")

    @property
    def settings(self) -> list[str]:
        return list(self.detail.get("settings", [self.setting] if self.setting else []))


class InputError(_Located, ValueError):
    """An input that cannot be read or does not make sense: a video, trace, QoE script, strategy
    script or model file that is malformed, or a strategy or dataset named by text that names
    nothing. `file` is the file (or the name given), `line` its line where one applies. A
    ValueError, as a malformed input was before; a file that is not there is an
    `InputNotFoundError`, also a FileNotFoundError."""


class InputNotFoundError(InputError, FileNotFoundError):
    """An input file or folder that is not there (or a dataset not fetched yet): an `InputError`
    and a FileNotFoundError, as before."""


class StrategyError(_Located, RuntimeError):
    """A strategy failed while it followed a session: an expert's script threw, or it chose a
    level outside the ladder. `strategy` is its id, `trace` the session's trace, `file` and
    `line` the script's where the error names them. A RuntimeError, as before."""

    @property
    def strategy(self) -> str | None:
        return self.detail.get("strategy")

    @property
    def trace(self) -> str | None:
        return self.detail.get("trace")


class LimitError(_Detailed, RuntimeError):
    """A session ran past a limit of the profile: its simulated time (`limit == "time"`, the
    profile's 86,400 s) or its steps (`"steps"`): the trace is too slow to finish it. `trace`
    names the trace. The episode cannot go on; reset. A RuntimeError, as before."""

    @property
    def limit(self) -> str | None:
        return self.detail.get("limit")

    @property
    def trace(self) -> str | None:
        return self.detail.get("trace")


def setting_error(keyword: str, message: str) -> SettingError:
    """A keyword's value refused in Python, before the library sees it."""
    return SettingError.with_detail(message, {"subject": "setting", "setting": keyword, "settings": [keyword]})
