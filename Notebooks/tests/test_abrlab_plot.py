"""The helpers the notebooks share: buffer states along the drawn buffer curve, and QoE axes that an
incomplete strategy's outliers cannot squash. Run by scripts/check-notebooks (pytest)."""
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import abrlab_plot as ap  # noqa: E402


@pytest.mark.parametrize("seconds, state", [
    (0.0, "empty"), (0.09, "empty"), (0.1, "critical"), (2.99, "critical"), (3.0, "low"), (9.99, "low"),
    (10.0, "sufficient"), (19.99, "sufficient"), (20.0, "good"), (30.0, "good"), (30.01, "excellent"),
])
def test_buffer_state_uses_the_seeds_thresholds(seconds, state):
    assert ap.buffer_state(seconds) == state


def test_a_drain_and_a_stall_show_as_they_happen():
    # 12 s of buffer drains to empty over 12 s, the player stalls 15 s, then a segment adds 4 s.
    times = [0.0, 12.0, 27.0, 27.0, 29.0]
    levels = [12.0, 0.0, 0.0, 4.0, 2.0]
    spans = ap.buffer_state_spans(times, levels)
    assert [state for _, _, state in spans] == ["sufficient", "low", "critical", "empty", "low", "critical"]
    assert spans[0][:2] == pytest.approx((0.0, 2.0))
    assert spans[1][:2] == pytest.approx((2.0, 9.0))
    assert spans[2][:2] == pytest.approx((9.0, 11.9))
    # The whole 15 s stall is empty, whatever the state before it.
    assert spans[3][:2] == pytest.approx((11.9, 27.0))
    assert spans[4][:2] == pytest.approx((27.0, 28.0))


def test_spans_cover_the_curve_without_gaps():
    times = [0.0, 5.0, 5.0, 40.0, 41.0]
    levels = [0.0, 0.0, 35.0, 0.5, 10.0]
    spans = ap.buffer_state_spans(times, levels)
    assert spans[0][0] == 0.0 and spans[-1][1] == 41.0
    assert all(a[1] == pytest.approx(b[0]) for a, b in zip(spans, spans[1:]))
    assert all(a[2] != b[2] for a, b in zip(spans, spans[1:]))


@pytest.mark.parametrize("mode", ["auto", "clip"])
def test_an_incomplete_strategys_outliers_do_not_set_the_qoe_axis(monkeypatch, mode):
    monkeypatch.setattr(ap, "QOE_AXIS", mode)
    ranked = [float(v) for v in range(20, 200, 10)]
    outliers = [-4007.0, -2500.0, 150.0]
    fig, ax = plt.subplots()
    note = ap.qoe_axis(ax, ranked + outliers, reference=ranked)
    low, high = ax.get_xlim()
    assert low > 0 and high < 220, (low, high)
    assert "ranked strategies" in note and "2 value(s) beyond" in note
    assert ap.beyond_axis(ax, outliers) == " (2 beyond the axis, down to -4007)"
    assert ap.beyond_axis(ax, ranked) == ""
    plt.close(fig)


def test_without_outliers_auto_leaves_the_axis_alone(monkeypatch):
    monkeypatch.setattr(ap, "QOE_AXIS", "auto")
    fig, ax = plt.subplots()
    ax.plot([10, 100], [0, 1])
    before = ax.get_xlim()
    assert ap.qoe_axis(ax, [10.0, 50.0, 100.0], reference=[10.0, 50.0, 100.0]) == ""
    assert ax.get_xlim() == before
    plt.close(fig)


@pytest.mark.parametrize("suffix", ["", ".gz", ".zst"])
def test_segments_are_read_plain_or_compressed_in_blocks(tmp_path, suffix):
    # As compare writes them: the header and each block of rows compressed on its own, concatenated;
    # a reader that stopped after the first gzip member or Zstandard frame would find no rows.
    import gzip
    import zstandard

    blocks = [b"strategy,trace,segment,qoe\n", b"bba,3g_1,1,0.75\nbba,3g_1,2,-0.15\n", b"bola,3g_1,1,1.5\n"]
    compress = {"": lambda block: block, ".gz": lambda block: gzip.compress(block, mtime=0),
                ".zst": lambda block: zstandard.ZstdCompressor(write_checksum=True).compress(block)}[suffix]
    (tmp_path / ("segments.csv" + suffix)).write_bytes(b"".join(compress(block) for block in blocks))
    assert ap.data_file(tmp_path, "segments.csv") == tmp_path / ("segments.csv" + suffix)
    frame = ap.read(tmp_path, "segments.csv")
    assert list(frame["strategy"]) == ["bba", "bba", "bola"]
    assert list(frame["qoe"]) == [0.75, -0.15, 1.5]


def test_a_missing_file_is_named(tmp_path):
    assert ap.data_file(tmp_path, "segments.csv") is None
    with pytest.raises(FileNotFoundError, match="segments.csv: not there, nor compressed"):
        ap.read(tmp_path, "segments.csv")


def test_trace_periods_are_read_in_each_drawable_format(tmp_path):
    (tmp_path / "a.csv").write_text("end_s,bandwidth_bps,latency_s\n1,158000,0.1\n3,2000000,0.1\n")
    (tmp_path / "p").write_text("10.0\t1.5\n12.0\t0.5\n15.0\t2.0\n")
    (tmp_path / "s.json").write_text('[{"duration_ms": 500, "bandwidth_kbps": 300, "latency_ms": 20},'
                                     ' {"duration_ms": 1500, "bandwidth_kbps": 900, "latency_ms": 20}]')
    (tmp_path / "m").write_text("1\n1\n2\n")
    ends, kbps = ap.read_trace_periods(tmp_path / "a.csv")
    assert list(ends) == [1, 3] and list(kbps) == [158, 2000]
    ends, kbps = ap.read_trace_periods(tmp_path / "p")
    assert list(ends) == [2, 5, 8] and list(kbps) == [1500, 500, 2000]
    ends, kbps = ap.read_trace_periods(tmp_path / "s.json")
    assert list(ends) == [0.5, 2.0] and list(kbps) == [300, 900]
    assert ap.read_trace_periods(tmp_path / "m") is None


def test_the_link_loops_its_trace_and_takes_the_bandwidth_multiplier(tmp_path):
    trace = tmp_path / "t.csv"
    trace.write_text("end_s,bandwidth_bps\n1,1000000\n3,2000000\n")
    run = {"inputs": {"traces": [{"name": "t", "file": {"path": str(trace)}}]},
           "settings": {"bandwidth_multiplier": 2}}
    (tmp_path / "run.json").write_text(json.dumps(run))
    times, kbps = ap.link_capacity(tmp_path, "t", 7.0)
    assert list(times) == [0, 1, 3, 4, 6, 7]
    assert list(kbps) == [2000, 4000, 2000, 4000, 2000, 2000]
    assert ap.link_capacity(tmp_path, "missing", 7.0) is None


def test_settings_are_read_by_their_keys_given_or_as_the_profile_resolved_them(tmp_path):
    run = {"settings": {"target_latency_s": None, "bandwidth_multiplier": 1},
           "profile": {"mechanics": {"model": "live", "target_latency_s": 1.5}}}
    (tmp_path / "run.json").write_text(json.dumps(run))
    assert ap.target_latency(tmp_path) == 1.5
    assert ap.run_setting(run, "bandwidth_multiplier") == 1
    assert ap.run_setting(run, "no_such_key") is None
