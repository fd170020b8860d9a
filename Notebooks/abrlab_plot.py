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


def read(results, name):
    """One CSV of the compare, or its .gz (compare --segments-format csv.gz). Names stay strings;
    only empty fields are missing values."""
    path = Path(results) / name
    if not path.exists() and path.with_name(name + ".gz").exists():
        path = path.with_name(name + ".gz")
    return pd.read_csv(path, keep_default_na=False, na_values=[""],
                       dtype={"strategy": str, "trace": str, "baseline": str, "error": str})


# The per-segment columns of segments.csv that only a live compare (--profile live) fills.
LIVE_SEGMENT_COLUMNS = ["live_latency_s", "playback_rate"]


def target_latency(results):
    """The live target latency (s) the compare ran with, from run.json's profile; None when absent."""
    try:
        with open(Path(results) / "run.json") as f:
            profile = json.load(f).get("profile", {})
    except (OSError, ValueError):
        return None
    live = profile.get("liveSettings") or {}
    value = live.get("targetLatencySeconds")
    return float(value) if value is not None else None


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


def qoe_axis(ax, values, axis="x"):
    """Scales the QoE axis as ABRLAB_QOE_AXIS says. Session QoE is heavy-tailed (one long stall
    costs hundreds of points), so `auto` clips the axis to the 1st-99th percentiles when the full
    range is more than three times as wide, and says how many values lie beyond. Returns a note
    for the title ('' when none)."""
    values = np.asarray(pd.Series(values).dropna(), dtype=float)
    if len(values) == 0:
        return ""
    low, high = np.percentile(values, [1, 99])
    full = values.max() - values.min()
    mode = QOE_AXIS
    if mode == "auto":
        mode = "clip" if high > low and full > 3 * (high - low) else "linear"
    set_scale = ax.set_xscale if axis == "x" else ax.set_yscale
    set_limits = ax.set_xlim if axis == "x" else ax.set_ylim
    if mode == "symlog":
        q1, q3 = np.percentile(values, [25, 75])
        set_scale("symlog", linthresh=max(1.0, q3 - q1))
        return "symmetric log axis"
    if mode == "clip":
        margin = 0.05 * (high - low) if high > low else 1.0
        set_limits(low - margin, high + margin)
        beyond = int(((values < low - margin) | (values > high + margin)).sum())
        return f"axis clipped to the 1st-99th percentiles; {beyond} value(s) beyond" if beyond else ""
    return ""


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
