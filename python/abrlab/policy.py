"""Policies leave Python as safetensors files that `abrlab compare` plays as the `mlp` strategy.

The layout (docs/python.md, "Back to abrlab"): tensors `layers.0.weight` [h1, 48],
`layers.0.bias` [h1], …, `layers.N.weight` [levels, hN], `layers.N.bias` [levels] — PyTorch's
`nn.Linear` shapes — and the metadata `activation` (`relu` or `tanh`) applied after every layer
but the last, whose outputs are the levels' logits. The input is the Pensieve observation
flattened row-major. Only numpy is needed to write or play one; `from_torch` and `from_sb3`
export a PyTorch network or a stable-baselines3 policy (they import torch when called).
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


def from_torch(module, path: str | os.PathLike) -> MLPPolicy:
    """Writes a PyTorch network as an `mlp` file and returns it as an `MLPPolicy`.

    The network is `nn.Linear` layers with one kind of activation (`nn.ReLU` or `nn.Tanh`)
    between them and none after the last, in an `nn.Sequential` (nested ones, `nn.Flatten` and
    `nn.Identity` are allowed): `nn.Sequential(nn.Linear(48, 64), nn.Tanh(), nn.Linear(64, 6))`.
    Anything else is refused with a ValueError naming the module."""
    return _export(_leaves(module), path, "the network")


def from_sb3(model, path: str | os.PathLike) -> MLPPolicy:
    """Writes the actor of a stable-baselines3 model (PPO or A2C with an `MlpPolicy` over the
    `pensieve` observation) as an `mlp` file, and returns it as an `MLPPolicy`: the layers of
    `mlp_extractor.policy_net` then `action_net`, with the policy's activation (tanh, SB3's
    default, or relu). `abrlab compare`'s `mlp` then plays `model.predict(obs, deterministic=True)`.
    A policy that sees anything but the raw observation flattened — another features
    extractor, `VecNormalize`d observations — or acts on anything but one level is refused."""
    from torch import nn

    policy = getattr(model, "policy", model)
    for name in ("mlp_extractor", "action_net", "action_dist"):
        if not hasattr(policy, name):
            raise ValueError(f"from_sb3 exports an actor-critic policy (PPO, A2C); this one has no {name}")
    if type(policy.action_dist).__name__ != "CategoricalDistribution":
        raise ValueError(f"from_sb3 needs a Discrete action space (one level per step), not {type(policy.action_dist).__name__}")
    extractor = getattr(policy, "pi_features_extractor", None) or policy.features_extractor
    if type(extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"from_sb3 needs SB3's FlattenExtractor (the observation flattened as is), not {type(extractor).__name__}")
    shape = getattr(policy.observation_space, "shape", None)
    if shape is None or int(np.prod(shape)) != INPUTS:
        raise ValueError(f"from_sb3 needs the pensieve observation ({INPUTS} values), not one of shape {shape}")
    normalizer = model.get_vec_normalize_env() if hasattr(model, "get_vec_normalize_env") else None
    if normalizer is not None and getattr(normalizer, "norm_obs", False):
        raise ValueError("the model trained on VecNormalize-normalised observations; `mlp` plays the raw observation")
    return _export(_leaves(nn.Sequential(policy.mlp_extractor.policy_net, policy.action_net)), path, "the SB3 policy")


def _leaves(module) -> list:
    """The modules a network runs, in order, with containers opened; an empty container (SB3's
    `policy_net` under `net_arch=[]`, no hidden layer) runs nothing."""
    from torch import nn

    children = list(module.children())
    if not children:
        return [] if isinstance(module, (nn.Sequential, nn.ModuleList)) else [module]
    return [leaf for child in children for leaf in _leaves(child)]


def _export(modules: list, path: str | os.PathLike, what: str) -> MLPPolicy:
    from torch import nn

    activations = {nn.ReLU: "relu", nn.Tanh: "tanh"}
    weights, biases, seen = [], [], set()
    expect_linear = True
    for module in modules:
        if isinstance(module, (nn.Flatten, nn.Identity)):
            continue
        if isinstance(module, nn.Linear) and expect_linear:
            weight = module.weight.detach().cpu().double().numpy()
            bias = module.bias.detach().cpu().double().numpy() if module.bias is not None else np.zeros(weight.shape[0])
            weights.append(weight)
            biases.append(bias)
            expect_linear = False
        elif type(module) in activations and not expect_linear:
            seen.add(activations[type(module)])
            expect_linear = True
        else:
            wanted = "nn.Linear" if expect_linear else "nn.ReLU or nn.Tanh (or the end)"
            raise ValueError(f"{what} is not an abrlab MLP: found {type(module).__name__} where {wanted} goes "
                             "(Linear layers with one activation between them, none after the last)")
    if not weights:
        raise ValueError(f"{what} has no nn.Linear layer")
    if expect_linear:
        raise ValueError(f"{what} ends with an activation; the last layer's outputs are the levels' logits")
    if len(seen) > 1:
        raise ValueError(f"{what} mixes activations ({', '.join(sorted(seen))}); an mlp file has one")
    activation = seen.pop() if seen else "relu"
    save_mlp(path, weights, biases, activation)
    return load_mlp(path)
