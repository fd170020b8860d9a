"""The package's exceptions, defined without the library, so `import abrlab` loads nothing native."""

from __future__ import annotations

from gymnasium.error import ResetNeeded


class StepBeforeReset(ResetNeeded, ValueError):
    """A step of a session not in an episode, before its first `reset` or after its episode
    ended: Gymnasium's `ResetNeeded` (what its OrderEnforcing wrapper raises), and a ValueError
    as every other refused call."""
