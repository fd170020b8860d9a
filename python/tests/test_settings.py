"""The keywords come from the library's settings table: every session setting `abrlab compare`
has is a keyword, checked by its declared kind here and by its range in the library, which names
it by its keyword."""

from __future__ import annotations

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
    assert table["profile"]["choices"] == ["default", "pensieve", "sabre", "live", "twitch-challenge"]
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
