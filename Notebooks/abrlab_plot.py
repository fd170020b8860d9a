"""Helpers the notebooks share: reading a compare's files, the figure options of scripts/figures,
failure marks, robust QoE axes and labels that do not overlap.

Options come from the environment (scripts/figures sets them):
  ABRLAB_FIGURE_FORMATS  comma-separated: png, pdf, svg (default png)
  ABRLAB_STRATEGIES      comma-separated strategy ids to plot (default: all)
  ABRLAB_QOE_AXIS        auto, linear, symlog or clip (default auto)
"""
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.text import Text

FORMATS = [f.strip() for f in os.environ.get("ABRLAB_FIGURE_FORMATS", "png").split(",") if f.strip()]
STRATEGIES = [s.strip() for s in os.environ.get("ABRLAB_STRATEGIES", "").split(",") if s.strip()] or None
QOE_AXIS = os.environ.get("ABRLAB_QOE_AXIS", "auto")
FAILED_MARK = "\u2717"  # ✗

for _format in FORMATS:
    if _format not in ("png", "pdf", "svg"):
        raise ValueError(f"ABRLAB_FIGURE_FORMATS: {_format!r} is not png, pdf or svg")
if QOE_AXIS not in ("auto", "linear", "symlog", "clip"):
    raise ValueError(f"ABRLAB_QOE_AXIS: {QOE_AXIS!r} is not auto, linear, symlog or clip")


# What compare --segments-format csv.gz and csv.zst add to the file's name; pandas reads .zst with zstandard.
COMPRESSED_SUFFIXES = (".gz", ".zst")


def data_file(results, name):
    """The path of one CSV of the compare: as named, else compressed (compare --segments-format csv.gz or
    csv.zst); None when neither is there."""
    path = Path(results) / name
    for candidate in [path] + [path.with_name(name + suffix) for suffix in COMPRESSED_SUFFIXES]:
        if candidate.exists():
            return candidate
    return None


def read(results, name):
    """One CSV of the compare, plain or compressed (see data_file). Names stay strings; only empty
    fields are missing values."""
    path = data_file(results, name)
    if path is None:
        raise FileNotFoundError(f"{Path(results) / name}: not there, nor compressed ({', '.join(COMPRESSED_SUFFIXES)})")
    return pd.read_csv(path, keep_default_na=False, na_values=[""],
                       dtype={"strategy": str, "trace": str, "baseline": str, "error": str})


# The per-segment columns of segments.csv that only a live compare (--profile live) fills.
LIVE_SEGMENT_COLUMNS = ["live_latency_s", "playback_rate"]


def run_setting(run, key):
    """A setting of the run by its key (docs/settings.md): as given or defaulted in run.json's
    `settings`, else as the resolved profile records it (`profile.mechanics`), else None."""
    value = (run.get("settings") or {}).get(key)
    if value is None:
        value = ((run.get("profile") or {}).get("mechanics") or {}).get(key)
    return value


def target_latency(results):
    """The live target latency (s) the compare ran with, from run.json; None when absent."""
    try:
        with open(Path(results) / "run.json") as f:
            run = json.load(f)
    except (OSError, ValueError):
        return None
    value = run_setting(run, "target_latency_s")
    return float(value) if value is not None else None


def read_trace_periods(path):
    """One pass of a trace file as (period end s, bandwidth kbps) arrays: abrlab's CSV (end_s,
    bandwidth_bps), Pensieve's (timestamp s and Mbit/s per line) or Sabre's JSON (duration_ms,
    bandwidth_kbps). None for other formats (Mahimahi), which the caller says it cannot draw."""
    path = Path(path)
    text = path.read_text()
    if path.suffix == ".json":
        periods = json.loads(text)
        durations = np.array([float(p["duration_ms"]) for p in periods]) / 1000
        return np.cumsum(durations), np.array([float(p["bandwidth_kbps"]) for p in periods])
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if lines and lines[0].replace(" ", "").startswith("end_s,bandwidth_bps"):
        rows = [line.split(",") for line in lines[1:]]
        return np.array([float(r[0]) for r in rows]), np.array([float(r[1]) for r in rows]) / 1000
    try:
        rows = [[float(x) for x in line.split()] for line in lines]
    except ValueError:
        return None
    if not rows or any(len(r) != 2 for r in rows):
        return None
    # Pensieve's rows are samples: the bandwidth of row i holds until row i + 1's timestamp.
    times = np.array([r[0] for r in rows])
    ends = np.append(times[1:], times[-1] + (times[-1] - times[-2] if len(times) > 1 else 1.0)) - times[0]
    return ends, np.array([r[1] for r in rows]) * 1000


def link_capacity(results, trace, until_s):
    """The link a group shared: `trace`'s capacity (kbps) as steps (times s, kbps) from 0 to
    `until_s`, the trace looping as the link does and scaled by the run's bandwidth multiplier;
    None when run.json does not name the trace's file or its format cannot be read here."""
    try:
        with open(Path(results) / "run.json") as f:
            run = json.load(f)
    except (OSError, ValueError):
        return None
    files = {t.get("name"): (t.get("file") or {}).get("path") for t in (run.get("inputs") or {}).get("traces", [])}
    if not files.get(trace) or not Path(files[trace]).exists():
        return None
    periods = read_trace_periods(files[trace])
    if periods is None:
        return None
    ends, kbps = periods
    kbps = kbps * float(run_setting(run, "bandwidth_multiplier") or 1)
    times, values, start = [], [], 0.0
    while start < until_s and ends[-1] > 0:
        times.extend(start + np.concatenate(([0.0], ends[:-1])))
        values.extend(kbps)
        start += ends[-1]
    times, values = np.array(times), np.array(values)
    keep = times < until_s
    return np.append(times[keep], until_s), np.append(values[keep], values[keep][-1] if keep.any() else 0.0)


def selected(frame, column="strategy"):
    """The rows of the strategies ABRLAB_STRATEGIES names (all when unset); unknown ids are an error."""
    if STRATEGIES is None:
        return frame
    unknown = sorted(set(STRATEGIES) - set(frame[column]))
    if unknown:
        raise ValueError(f"ABRLAB_STRATEGIES names {unknown}, not in the results: {sorted(frame[column].unique())}")
    return frame[frame[column].isin(STRATEGIES)]


def save(fig, figures, stem):
    """Saves the figure once per format; returns the paths."""
    paths = []
    for extension in FORMATS:
        path = Path(figures) / f"{stem}.{extension}"
        fig.savefig(path)
        paths.append(path)
    return paths


def failure_note(row):
    """' ✗ 6 of 12 failed' for an incomplete strategy's summary row, '' otherwise."""
    failures = int(row["failures"])
    if failures == 0:
        return ""
    return f" {FAILED_MARK} {failures} of {failures + int(row['sessions'])} failed"


def rank_label(row):
    """'#1' for a ranked strategy, 'incomplete' for one with failed sessions."""
    return f"#{int(row['rank'])}" if pd.notna(row["rank"]) else "incomplete"


def qoe_axis(ax, values, axis="x", reference=None):
    """Scales the QoE axis as ABRLAB_QOE_AXIS says. Session QoE is heavy-tailed (one long stall
    costs hundreds of points), so `auto` clips the axis to the 1st-99th percentiles of `reference`
    when the full range of `values` is more than three times as wide, and says how many values lie
    beyond; `clip` always clips. `reference` are the values the axis must show well: the ranked
    strategies', so an incomplete strategy's outliers cannot squash them (default: `values`).
    Returns a note for the title ('' when none)."""
    values = np.asarray(pd.Series(values).dropna(), dtype=float)
    reference = values if reference is None else np.asarray(pd.Series(reference).dropna(), dtype=float)
    if len(reference) == 0:
        reference = values
    if len(values) == 0:
        return ""
    low, high = np.percentile(reference, [1, 99])
    full = values.max() - values.min()
    mode = QOE_AXIS
    if mode == "auto":
        mode = "clip" if high > low and full > 3 * (high - low) else "linear"
    set_scale = ax.set_xscale if axis == "x" else ax.set_yscale
    set_limits = ax.set_xlim if axis == "x" else ax.set_ylim
    if mode == "symlog":
        q1, q3 = np.percentile(reference, [25, 75])
        set_scale("symlog", linthresh=max(1.0, q3 - q1))
        return "symmetric log axis"
    if mode == "clip":
        margin = 0.05 * (high - low) if high > low else max(1.0, 0.05 * abs(high))
        set_limits(low - margin, high + margin)
        beyond = int(((values < low - margin) | (values > high + margin)).sum())
        whose = "the ranked strategies' " if len(reference) < len(values) else ""
        return f"axis clipped to {whose}1st-99th percentiles; {beyond} value(s) beyond" if beyond else ""
    return ""


def beyond_axis(ax, values, axis="x"):
    """How many of `values` lie outside the axis' limits as set: '' or ' (3 beyond the axis, down to -4007)'."""
    values = np.asarray(pd.Series(values).dropna(), dtype=float)
    low, high = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
    below, above = values[values < low], values[values > high]
    if len(below) + len(above) == 0:
        return ""
    extremes = ([f"down to {below.min():.0f}"] if len(below) else []) + ([f"up to {above.max():.0f}"] if len(above) else [])
    return f" ({len(below) + len(above)} beyond the axis, {' and '.join(extremes)})"


# The seed's buffer states by buffered seconds (BufferState.swift): below each bound, the state.
BUFFER_STATES = [(0.1, "empty"), (3.0, "critical"), (10.0, "low"), (20.0, "sufficient"), (30.0, "good")]


def buffer_state(seconds):
    """The buffer state of a buffer level, as the player's indicator names it (good up to 30 s)."""
    for bound, state in BUFFER_STATES:
        if seconds < bound or (state == "good" and seconds <= bound):
            return state
    return "excellent"


def buffer_state_spans(times, levels):
    """[(start, end, state)] along the piecewise-linear buffer curve through (times, levels): each
    piece is cut where it crosses a state's bound, so a drain to empty and a stall show as such,
    and neighbours in the same state are merged. Pieces of zero length (jumps) add nothing."""
    spans = []
    bounds = [bound for bound, _ in BUFFER_STATES]
    for (t0, l0), (t1, l1) in zip(zip(times, levels), zip(times[1:], levels[1:])):
        if t1 <= t0:
            continue
        cuts = [t0]
        if l1 != l0:
            crossings = [t0 + (bound - l0) / (l1 - l0) * (t1 - t0) for bound in bounds
                         if min(l0, l1) < bound < max(l0, l1)]
            cuts += sorted(crossings)
        cuts.append(t1)
        for a, b in zip(cuts, cuts[1:]):
            if b <= a:
                continue
            middle = l0 + (l1 - l0) * ((a + b) / 2 - t0) / (t1 - t0)
            state = buffer_state(middle)
            if spans and spans[-1][2] == state and abs(spans[-1][1] - a) < 1e-9:
                spans[-1] = (spans[-1][0], b, state)
            else:
                spans.append((a, b, state))
    return spans


def place_labels(ax, points, texts, **style):
    """Annotates each (x, y) point with its text where the label stays inside the axes and
    overlaps no earlier label and no marker: tries offsets around the point, nearest first. Points
    that coincide (identical results) share one label, their texts joined by ' = '. Returns the
    annotations."""
    merged = {}
    for point, text in zip(points, texts):
        merged.setdefault((round(point[0], 9), round(point[1], 9)), (point, []))[1].append(text)
    points = [point for point, _ in merged.values()]
    texts = [" = ".join(names) for _, names in merged.values()]
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    marker_boxes = []
    for x, y in points:
        cx, cy = ax.transData.transform((x, y))
        marker_boxes.append((cx - 6, cy - 6, cx + 6, cy + 6))
    placed, annotations = [], []
    offsets = [(dx * r, dy * r) for r in (8, 16, 26, 38, 52, 70)
               for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1))]
    for (x, y), text in zip(points, texts):
        chosen = None
        for dx, dy in offsets:
            # A thin leader line ties a label pushed away from its point back to it.
            leader = dict(arrowstyle="-", color="gray", linewidth=0.6, shrinkA=0, shrinkB=5) if abs(dx) + abs(dy) > 16 else None
            annotation = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", arrowprops=leader,
                                     ha="left" if dx >= 0 else "right", va="bottom" if dy >= 0 else "top", **style)
            box = _text_extent(annotation, renderer)
            rect = (box.x0, box.y0, box.x1, box.y1)
            inside = frame.x0 <= rect[0] and rect[2] <= frame.x1 and frame.y0 <= rect[1] and rect[3] <= frame.y1
            if inside and not any(_overlap(rect, other) for other in placed + marker_boxes):
                chosen = (annotation, rect)
                break
            annotation.remove()
        if chosen is None:  # every spot taken: the last candidate, flagged by the check below
            annotation = ax.annotate(text, (x, y), xytext=offsets[-1], textcoords="offset points", **style)
            box = _text_extent(annotation, renderer)
            chosen = (annotation, (box.x0, box.y0, box.x1, box.y1))
        annotations.append(chosen[0])
        placed.append(chosen[1])
    return annotations


def labels_overlap(ax, annotations):
    """Whether any two of the annotations overlap as drawn."""
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [_text_extent(a, renderer) for a in annotations]
    rects = [(b.x0, b.y0, b.x1, b.y1) for b in boxes]
    return any(_overlap(a, b) for i, a in enumerate(rects) for b in rects[i + 1:])


def _text_extent(annotation, renderer):
    """The label's own box, without its leader line."""
    annotation.update_positions(renderer)
    return Text.get_window_extent(annotation, renderer)


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
