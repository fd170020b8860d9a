"""The keywords come from the library's settings table: every session setting `abrlab compare`
has is a keyword, checked by its declared kind here and by its range in the library, which names
it by its keyword."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import abrlab
from abrlab import ABREnv
from abrlab import _options


def test_every_keyword_is_the_tables_and_help_lists_it():
    keywords = {entry["keyword"] for entry in abrlab.settings()}
    assert set(_options.OPTION_NAMES) == keywords
    # The six compare had and Python lacked before the table.
    assert {"catchup", "catchup_min_drift_s", "check_every_step", "replace", "warmup_kbps", "warmup_s"} <= keywords
    for keyword in keywords:
        assert f"    {keyword} (" in ABREnv.__doc__


def test_a_default_is_the_command_lines(repo_inputs):
    table = {entry["keyword"]: entry for entry in abrlab.settings()}
    assert table["bandwidth_multiplier"]["default"] == 1
    assert table["profile"]["choices"] == ["default", "pensieve", "sabre", "live", "twitch-challenge", "dashjs"]
    assert table["max_buffer_s"]["default"] is None and "profile" in table["max_buffer_s"]["default_text"]


@pytest.mark.parametrize("options", [
    {"profile": "sabre", "replace": "left"},
    {"profile": "sabre", "check_every_step": True},
    {"profile": "sabre", "bandwidth_multiplier": 0.5, "no_abandon": True},
    {"profile": "live", "video": "twitch-ll", "qoe": "nqoe", "warmup_s": 10, "warmup_kbps": 2000, "catchup": "dashjs3",
     "catchup_min_drift_s": 0.05},
])
def test_the_settings_python_lacked_play_a_session(repo_inputs, options):
    env = ABREnv(**{**repo_inputs, **options})
    env.reset(seed=0)
    _, _, terminated, truncated, _ = env.step(0)
    assert not truncated
    env.close()


@pytest.mark.parametrize(("options", "message"), [
    ({"bandwidth_multiplier": 0, "profile": "sabre"}, "bandwidth_multiplier: must be a positive number"),
    ({"max_buffer_s": -1}, "max_buffer_s: must be a positive number of seconds, at most 86400"),
    ({"replace": "middle", "profile": "sabre"}, "replace: 'middle' is not one of none, left, right"),
    ({"warmup_s": 10}, "warmup_s: works on the live profiles only, not on default"),
    ({"segments": 0}, "segments: must be from 1 to 10000000"),
])
def test_a_value_out_of_range_names_its_keyword(repo_inputs, options, message):
    with pytest.raises(ValueError) as raised:
        ABREnv(**{**repo_inputs, **options})
    assert message in str(raised.value)


@pytest.mark.parametrize(("options", "error"), [
    ({"replace": 3}, ValueError),
    ({"check_every_step": "yes"}, ValueError),
    ({"frobnicate": 1}, TypeError),
])
def test_a_value_of_the_wrong_kind_is_refused_before_the_library(repo_inputs, options, error):
    with pytest.raises(error):
        ABREnv(**{**repo_inputs, **options})


def _wrong_values(entry: dict) -> list[tuple[str, object]]:
    """Values a setting refuses, as (the command line's text, Python's value): out of its range,
    not one of its choices, not of its kind."""
    kind = entry["kind"]
    if kind in ("number", "integer"):
        return ([("-1", -1)] if entry["range"] else []) + [("x", "x")]
    if kind == "numbers":
        return [("-1", [-1])]
    if kind == "seed":
        return [("x", "x")]
    if kind == "choice":
        return [("nope", "nope")]
    if entry["keyword"] in ("qoe", "estimator"):
        return [("nope", "nope")]
    return []


_PROFILE_FOR = {"live": "live", "segment buffer (sabre)": "sabre"}


def test_a_wrong_value_reads_as_the_command_lines(repo_inputs, abrlab_bin):
    """One message per mistake on both faces: `abrlab run --flag text` and `ABREnv(keyword=value)`
    say the same, the setting named as each face spells it, for every keyword with a flag."""
    trace = sorted(Path(repo_inputs["traces"]).iterdir())[0]
    walked = []
    for keyword, entry, text, value in _wrong_cases():
        walked.append(keyword)
        context = {"profile": _PROFILE_FOR[entry["applies_to"]]} if entry["applies_to"] in _PROFILE_FOR else {}
        arguments = [abrlab_bin, "run", "--trace", str(trace), "--video", repo_inputs["video"]]
        arguments += [part for name, given in context.items() for part in (f"--{name}", given)] + [entry["flag"], text]
        command_line = subprocess.run(arguments, capture_output=True, text=True, check=False)
        with pytest.raises(abrlab.SettingError) as raised:
            ABREnv(**{**repo_inputs, **context, keyword: value})
        message = str(raised.value)
        assert message.startswith(f"{keyword}: ")
        assert command_line.stderr == f"abrlab: {entry['flag']}{message[len(keyword):]}\n", (text, value)
    assert {"max_buffer_s", "profile", "seed", "ladder_kbps", "segments"} <= set(walked)


def _wrong_cases():
    for keyword, entry in _options.settings_table().items():
        if entry["flag"]:
            for text, value in _wrong_values(entry):
                yield keyword, entry, text, value


def test_a_shipped_trace_set_name_is_the_command_lines(repo_inputs, abrlab_bin, tmp_path):
    """`traces="3g"` steps through the set `abrlab compare --traces 3g` plays, under its names,
    from any working folder: the library resolves the name for both."""
    import csv

    out = tmp_path / "results"
    subprocess.run([abrlab_bin, "compare", "--traces", "3g", "--strategies", "bba-native", "--segments", "2", "--quiet",
                    "--out", str(out)], check=True, cwd=tmp_path)
    with open(out / "sessions.csv", newline="") as rows:
        command_line = [row["trace"] for row in csv.DictReader(rows)]
    env = ABREnv(video=repo_inputs["video"], traces="3g")
    assert list(env.trace_names) == command_line
    env.close()


def test_params_go_typed_and_the_old_strings_still_work(repo_inputs):
    """A params dict is sent as typed JSON; `id.key=value` strings are still taken; a value that
    is no one value is refused naming the key."""
    for params in ({"bba.reservoir_s": 5.0, "bba.cushion_s": 20}, ["bba.reservoir_s=5", "bba.cushion_s=20"]):
        env = ABREnv(**repo_inputs, experts=["bba"], params=params)
        env.reset(seed=0)
        env.close()
    assert _options._params({"bba.reservoir_s": 5.0}) == {"bba.reservoir_s": 5.0}
    with pytest.raises(abrlab.SettingError, match=r"^params: bba.reservoir_s takes one number, string or True/False, not \[1, 2\]"):
        ABREnv(**repo_inputs, experts=["bba"], params={"bba.reservoir_s": [1, 2]})
