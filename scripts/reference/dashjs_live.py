#!/usr/bin/env python3
"""Reference transcription of dash.js's low-latency ABR maths -- a test oracle for
Strategies/live/lib/*.lua.

Transcribed from dash.js (read, not copied): v4.7.1 src/streaming/rules/abr/L2ARule.js (steady
state and euclideanProjection), lolp/LoLpQoEEvaluator.js (4.x, commit 7a49069), v5.0.0
lolp/LoLpWeightSelector.js (the full scan of all 5^4 weight vectors, as dash.js does it),
lolp/LearningAbrController.js (5.x, commit 10593c7) and controllers/CatchupController.js
(4.x, commit 02a46cb: _calculateNewPlaybackRateLolP and the minimum rate change). It keeps dash.js's
operation order so that doubles come out the same as the Lua modules'.

  L2A-LL: Karagkioules et al., ACM MMSys 2020, doi:10.1145/3339825.3397042.
  LoL+:   Bentaleb et al., IEEE Trans. Multimedia 2022, doi:10.1109/TMM.2021.3079288.

Usage: dashjs_live.py SCENARIO.json  -> JSON on stdout. The scenario is
  {"l2a": {"bitrates_kbps": [...], "horizon": 4, "react": 2, "start_level": 1,
           "steps": [[last_throughput_kbps, segment_duration_s, playback_rate], ...]},
   "lolp": {"bitrates_bps": [...], "seed": 7, "segment_duration_s": 0.5, "start_level": 1,
            "steps": [[throughput_bps, latency_s, buffer_s, playback_rate], ...]},
   "rate": [[latency_s, target_s, buffer_s, buffer_min_s, rate_min, rate_max, current_rate], ...]}
(every part optional). Levels are 1-based; `*_hex` fields repeat numbers as exact hexadecimal
floats (Python's float.hex, which Lua reads as literals). The LoL+ map draws its random numbers from the LCG
below (`lcg`), which the tests use on the Lua side too. Standard library only.
"""
import json
import math
import sys


# --- L2A-LL --------------------------------------------------------------------------------

def euclidean_projection(arr):
    m = len(arr)
    s = sorted(arr, reverse=True)
    tmpsum = 0.0
    tmax = 0.0
    bget = False
    for ii in range(m - 1):
        tmpsum = tmpsum + s[ii]
        tmax = (tmpsum - 1) / (ii + 1)
        if tmax >= s[ii + 1]:
            bget = True
            break
    if not bget:
        tmax = (tmpsum + s[m - 1] - 1) / m
    return [max(a - tmax, 0) for a in arr]


def dot(a, b):
    total = 0.0
    for x, y in zip(a, b):
        total = total + x * y
    return total


def l2a_run(spec):
    bitrates = [float(b) for b in spec["bitrates_kbps"]]
    n = len(bitrates)
    horizon = spec.get("horizon", 4)
    react = spec.get("react", 2)
    vl = math.pow(horizon, 0.99)
    alpha = max(math.pow(horizon, 1), vl * math.sqrt(horizon))
    last = spec["start_level"] - 1
    prev_w = [1.0 if i == last else 0.0 for i in range(n)]
    q = vl
    out = []
    for lastthroughput, v, rate in spec["steps"]:
        w = [0.0] * n
        sign = 1
        for i in range(n):
            if rate * bitrates[i] > lastthroughput:
                sign = -1
            w[i] = prev_w[i] + sign * (v / (2 * alpha)) * ((q + vl) * (rate * bitrates[i] / lastthroughput))
        w = euclidean_projection(w)
        diff = [w[i] - prev_w[i] for i in range(n)]
        prev_w = list(w)
        q = max(0, q - v + v * rate * ((dot(bitrates, prev_w) + dot(bitrates, diff)) / lastthroughput))
        expected = dot(w, bitrates)
        temp = [abs(bitrates[i] - expected) for i in range(n)]
        quality = temp.index(min(temp))
        if quality > last and bitrates[last + 1] <= lastthroughput:
            quality = last + 1
        if bitrates[quality] >= lastthroughput:
            q = react * max(vl, q)
        last = quality
        out.append({"level": quality + 1, "q": q, "w": w, "q_hex": float(q).hex()})
    return out


# --- LoL+ ----------------------------------------------------------------------------------

def lcg(seed):
    state = [seed % 2147483648]

    def draw():
        state[0] = (state[0] * 1103515245 + 12345) % 2147483648
        return state[0] / 2147483648
    return draw


def qoe_weights(segment_duration, max_kbps, min_kbps):
    return {"bitrateReward": segment_duration, "bitrateSwitchPenalty": 1, "rebufferPenalty": max_kbps,
            "latencyPenalty": [(1.1, min_kbps * 0.05), (100000000, max_kbps * 0.1)],
            "playbackSpeedPenalty": min_kbps}


def single_use_qoe(weights, bitrate, rebuffer, latency, speed):
    bitrate_sum = 0 + weights["bitrateReward"] * bitrate
    rebuffer_sum = 0 + weights["rebufferPenalty"] * rebuffer
    latency_sum = 0
    for threshold, penalty in weights["latencyPenalty"]:
        if latency <= threshold:
            latency_sum = latency_sum + penalty * latency
            break
    speed_sum = 0 + weights["playbackSpeedPenalty"] * abs(1 - speed)
    return bitrate_sum - 0 - rebuffer_sum - latency_sum - speed_sum


def permutations(values, length):
    perm = [[v] for v in values]
    for _ in range(length - 1):
        perm = [p + [v] for p in perm for v in values]
    return perm


WEIGHT_OPTIONS = permutations([0.2, 0.4, 0.6, 0.8, 1], 4)


def next_buffer(segment_duration, buffer, download_time):
    if download_time > segment_duration:
        return buffer - segment_duration
    return buffer + segment_duration - download_time


def find_weight_vector(neurons, latency, buffer, throughput, rate, segment_duration, weights,
                       target_latency=1.5, buffer_min=0.3, previous_latency=0):
    max_qoe = None
    winner = None
    delta = abs(latency - previous_latency)
    for neuron in neurons:
        for wv in WEIGHT_OPTIONS:
            download_time = neuron["bw"] * segment_duration / throughput
            nb = next_buffer(segment_duration, buffer, download_time)
            rebuffer = max(0.00001, download_time - nb)
            weighted_rebuffer = (1 / wv[2]) * rebuffer
            weighted_latency = (1 / wv[1]) * neuron["state"][1]
            total = single_use_qoe(weights, neuron["bw"], weighted_rebuffer, weighted_latency, rate)
            ok = not (latency > target_latency + delta) and nb >= buffer_min
            if (max_qoe is None or total > max_qoe) and ok:
                max_qoe = total
                winner = wv
    return winner


def distance(a, b, w):
    total = 0.0
    for i in range(len(a)):
        total = total + w[i] * ((a[i] - b[i]) * (a[i] - b[i]))
    sign = -1 if total < 0 else 1
    return sign * math.sqrt(abs(total))


class Som:
    def __init__(self, bitrates, draw):
        squares = 0.0
        for b in bitrates:
            squares = squares + b * b
        self.norm = math.sqrt(squares)
        self.min_bitrate = min(bitrates)
        self.neurons = [{"level": i + 1, "bw": b, "state": [b / self.norm, 0.0, 0.0, 0.0]}
                        for i, b in enumerate(bitrates)]
        self.weights = None
        self.centres = self.initial_centres(draw)

    def max_throughput(self):
        return max([0.0] + [n["state"][0] for n in self.neurons])

    def initial_centres(self, draw):
        n = len(self.neurons)
        top = self.max_throughput()
        data = []
        for _ in range(n * n):
            t = draw() * top
            data.append([t, draw(), draw(), draw()])
        ones = [1, 1, 1, 1]
        centres = [data[0]]
        for _ in range(1, n):
            nxt, far = None, None
            for p in data:
                near = None
                for c in centres:
                    d = distance(p, c, ones)
                    if near is None or d < near:
                        near = d
                if far is None or near > far:
                    nxt, far = p, near
            centres.append(nxt)
        least, largest = None, None
        for i, c in enumerate(centres):
            total = 0
            for j, o in enumerate(centres):
                if i != j:
                    total += distance(c, o, ones)
            if largest is None or total > largest:
                least, largest = i, total
        ordered = [centres.pop(least)]
        while centres:
            idx, near = None, None
            for i, c in enumerate(centres):
                d = distance(ordered[0], c, ones)
                if near is None or d < near:
                    idx, near = i, d
            ordered.append(centres.pop(idx))
        return ordered

    def update(self, winner, x):
        for neuron in self.neurons:
            d = distance(neuron["state"], winner["state"], [1, 1, 1, 1])
            h = math.exp(-1 * (d * d) / (2 * (0.1 * 0.1)))
            s = neuron["state"]
            for k in range(4):
                s[k] = s[k] + (x[k] - s[k]) * 0.01 * h

    def next_level(self, throughput, latency, buffer, rate, current_level, segment_duration, weights):
        tn = throughput / self.norm
        if tn > 1:
            tn = self.max_throughput()
        latency_n = latency / 100
        current = self.neurons[current_level - 1]
        download_time = current["bw"] * segment_duration / throughput
        rebuffer = max(0, download_time - buffer)
        if buffer - download_time < 0.3:
            best, result = 0, current
            for n in self.neurons:
                if n["bw"] < current["bw"] and n["bw"] > best and throughput > n["bw"]:
                    best, result = n["bw"], n
            return result["level"]
        if self.weights is None:
            self.weights = self.centres[-1]
        found = find_weight_vector(self.neurons, latency, buffer, throughput, rate, segment_duration, weights)
        if found is not None:
            self.weights = found
        winner, nearest = None, None
        for neuron in self.neurons:
            w = list(self.weights)
            nb = next_buffer(segment_duration, buffer, neuron["bw"] * segment_duration / throughput)
            if neuron["bw"] > throughput - 10000 or nb < 0.3:
                if neuron["bw"] != self.min_bitrate:
                    w[0] = 100
            d = distance(neuron["state"], [tn, 0, 0, 0], w)
            if nearest is None or d < nearest:
                winner, nearest = neuron, d
        switch = abs(current["bw"] - winner["bw"]) / self.norm
        self.update(current, [tn, latency_n, rebuffer, switch])
        self.update(winner, [tn, 0, 0, switch])
        return winner["level"]


def lolp_run(spec):
    bitrates = [float(b) for b in spec["bitrates_bps"]]
    som = Som(bitrates, lcg(spec["seed"]))
    d = spec["segment_duration_s"]
    weights = qoe_weights(d, bitrates[-1] / 1000, bitrates[0] / 1000)
    level = spec["start_level"]
    out = []
    for throughput, latency, buffer, rate in spec["steps"]:
        level = som.next_level(throughput, latency, buffer, rate, level, d, weights)
        states = [list(n["state"]) for n in som.neurons]
        out.append({"level": level, "weights": som.weights, "states": states,
                    "states_hex": [[float(x).hex() for x in s] for s in states]})
    return {"centres": som.centres, "steps": out}


def lolp_rate(latency, target, buffer, buffer_min, rate_min, rate_max, current):
    if buffer < buffer_min:
        cpr = abs(rate_min)
        d = (buffer - buffer_min) * 5
        new = (1 - cpr) + (cpr * 2) / (1 + math.pow(math.e, -d))
    elif abs(latency - target) <= 0.02 * target:
        new = 1
    else:
        delta = latency - target
        cpr = abs(rate_min) if delta < 0 else rate_max
        d = delta * 5
        new = (1 - cpr) + (cpr * 2) / (1 + math.pow(math.e, -d))
    min_change = 0.02 / (0.5 / rate_max)
    applied = new if (abs(current - new) >= min_change or new == 1) else current
    return {"target": new, "applied": applied, "applied_hex": float(applied).hex()}


def main():
    with open(sys.argv[1]) as f:
        scenario = json.load(f)
    result = {}
    if "l2a" in scenario:
        result["l2a"] = l2a_run(scenario["l2a"])
    if "lolp" in scenario:
        result["lolp"] = lolp_run(scenario["lolp"])
    if "rate" in scenario:
        result["rate"] = [lolp_rate(*row) for row in scenario["rate"]]
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
