"""Policies leave Python as safetensors files that `abrlab compare` plays as the `mlp` strategy.

The layout (docs/python.md, "Back to abrlab"): tensors `layers.0.weight` [h1, 48],
`layers.0.bias` [h1], …, `layers.N.weight` [levels, hN], `layers.N.bias` [levels] — PyTorch's
`nn.Linear` shapes — and the metadata `activation` (`relu` or `tanh`) applied after every layer
but the last, whose outputs are the levels' logits. The input is the Pensieve observation
flattened row-major. Only numpy is needed to write or play one.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import Sequence

import numpy as np

ACTIVATIONS = ("relu", "tanh")
INPUTS = 48


def save_mlp(path: str | os.PathLike, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], activation: str = "relu") -> None:
    """Writes an MLP (weights [outputs, inputs] per layer, PyTorch's orientation) as float32 safetensors."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, not {activation!r}")
    if len(weights) != len(biases) or not weights:
        raise ValueError("an MLP needs one bias per weight matrix, and at least one layer")
    tensors: dict[str, np.ndarray] = {}
    inputs = INPUTS
    for index, (weight, bias) in enumerate(zip(weights, biases)):
        weight, bias = np.asarray(weight, dtype=np.float32), np.asarray(bias, dtype=np.float32)
        if weight.ndim != 2 or weight.shape[1] != inputs or bias.shape != (weight.shape[0],):
            raise ValueError(f"layer {index}: weight {weight.shape} and bias {bias.shape}; expected [outputs, {inputs}] and [outputs]")
        if not (np.isfinite(weight).all() and np.isfinite(bias).all()):
            raise ValueError(f"layer {index} holds a weight that is not a finite number")
        tensors[f"layers.{index}.weight"], tensors[f"layers.{index}.bias"] = weight, bias
        inputs = weight.shape[0]
    header: dict = {"__metadata__": {"activation": activation, "format": "abrlab-mlp"}}
    offset, blobs = 0, []
    for name, tensor in tensors.items():
        blob = np.ascontiguousarray(tensor, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensor.shape), "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    Path(path).write_bytes(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def load_mlp(path: str | os.PathLike) -> "MLPPolicy":
    """Reads an MLP file, refusing any other layout with a ValueError."""
    data = Path(path).read_bytes()
    if len(data) < 8:
        raise ValueError(f"{path}: not a safetensors file (too short)")
    (length,) = struct.unpack("<Q", data[:8])
    try:
        header = json.loads(data[8:8 + length])
    except (ValueError, UnicodeDecodeError):
        raise ValueError(f"{path}: not a safetensors file (no JSON header)") from None
    metadata = header.pop("__metadata__", {}) or {}
    activation = metadata.get("activation", "relu")
    names = sorted(header)
    count = len(names) // 2
    expected = sorted(f"layers.{index}.{part}" for index in range(count) for part in ("weight", "bias"))
    if not names or names != expected:
        raise ValueError(f"{path}: not an abrlab MLP: expected tensors layers.0.weight, layers.0.bias, … (found {', '.join(names[:4]) or 'none'})")
    dtypes = {"F32": "<f4", "F64": "<f8", "F16": "<f2"}
    start = 8 + length

    def tensor(name: str) -> np.ndarray:
        entry = header[name]
        if entry["dtype"] not in dtypes:
            raise ValueError(f"{path}: {name} is {entry['dtype']}; an MLP's tensors are floats")
        first, last = entry["data_offsets"]
        return np.frombuffer(data[start + first:start + last], dtype=dtypes[entry["dtype"]]).astype(np.float64).reshape(entry["shape"])

    weights = [tensor(f"layers.{index}.weight") for index in range(count)]
    biases = [tensor(f"layers.{index}.bias") for index in range(count)]
    return MLPPolicy(weights, biases, activation)


class MLPPolicy:
    """An MLP over the Pensieve observation that plays the most likely level, as `mlp` does in compare."""

    def __init__(self, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray], activation: str = "relu") -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, not {activation!r}")
        self.weights = [np.asarray(weight, dtype=np.float64) for weight in weights]
        self.biases = [np.asarray(bias, dtype=np.float64) for bias in biases]
        self.activation = activation
        inputs = INPUTS
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases)):
            if weight.ndim != 2 or weight.shape[1] != inputs or bias.shape != (weight.shape[0],):
                raise ValueError(f"layer {index}: weight {weight.shape} and bias {bias.shape}; expected [outputs, {inputs}] and [outputs]")
            inputs = weight.shape[0]

    def logits(self, observations: np.ndarray) -> np.ndarray:
        """Logits for one observation (6, 8) or a batch (n, 6, 8)."""
        values = np.asarray(observations, dtype=np.float32).astype(np.float64).reshape(-1, INPUTS)
        for index, (weight, bias) in enumerate(zip(self.weights, self.biases)):
            values = values @ weight.T + bias
            if index < len(self.weights) - 1:
                values = np.maximum(values, 0) if self.activation == "relu" else np.tanh(values)
        return values

    def __call__(self, observations: np.ndarray) -> np.ndarray | int:
        """The most likely level (the first on ties): an int for one observation, an array for a batch."""
        levels = self.logits(observations).argmax(axis=1)
        return int(levels[0]) if np.ndim(observations) == 2 else levels

    def save(self, path: str | os.PathLike) -> None:
        save_mlp(path, self.weights, self.biases, self.activation)
