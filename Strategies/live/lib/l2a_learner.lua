-- L2A-LL's online learner: the probability vector over levels, its Lagrangian descent step,
-- the projection back onto the simplex and the multiplier Q that tracks buffer displacement.
-- Karagkioules, Mekuria, Griffioen, Wagenaar, "Online learning for low-latency adaptive
-- streaming", ACM MMSys 2020, doi:10.1145/3339825.3397042; the steps follow dash.js v4.7.1,
-- src/streaming/rules/abr/L2ARule.js (getSwitchRequest, steady state, and euclideanProjection).
-- Pure functions over a state table, without require, so tests can run it on its own.
-- Levels are 1-based; bitrates and throughputs are kbps.

local L = {}

-- The projection of `values` onto the probability simplex {x : x >= 0, sum(x) = 1}
-- (Chen and Ye, arXiv:1101.6081): sort descending, find the threshold t, clamp at x - t.
function L.project_to_simplex(values)
  local m = #values
  local sorted = {}
  for i = 1, m do sorted[i] = values[i] end
  table.sort(sorted, function(a, b) return a > b end)
  local running, threshold, found = 0, 0, false
  for i = 1, m - 1 do
    running = running + sorted[i]
    threshold = (running - 1) / i
    if threshold >= sorted[i + 1] then
      found = true
      break
    end
  end
  if not found then threshold = (running + sorted[m] - 1) / m end
  local projected = {}
  for i = 1, m do projected[i] = math.max(values[i] - threshold, 0) end
  return projected
end

local function dot(a, b)
  local sum = 0
  for i = 1, #a do sum = sum + a[i] * b[i] end
  return sum
end

-- The learner's constants for an optimisation horizon and a reactiveness (dash.js: 4 and 2):
-- V_L = horizon^0.99 is the cautiousness, alpha = max(horizon, V_L * sqrt(horizon)) the step size.
function L.new(bitrates_kbps, horizon, react)
  local vl = horizon ^ 0.99
  return {
    bitrates_kbps = bitrates_kbps,
    vl = vl,
    alpha = math.max(horizon, vl * math.sqrt(horizon)),
    react = react,
    q = 0,
    w = {},
    prev_w = {},
  }
end

-- Leaves start-up: Q starts at V_L and all probability sits on the level last chosen.
function L.start_steady(state, last_level)
  state.q = state.vl
  for i = 1, #state.bitrates_kbps do
    state.prev_w[i] = (i == last_level) and 1 or 0
  end
end

-- One steady-state decision after a segment of `segment_duration_s` was measured at
-- `last_throughput_kbps` (at least 1) while playing at `playback_rate`; returns the 1-based level.
function L.step(state, last_level, last_throughput_kbps, segment_duration_s, playback_rate)
  local bitrates = state.bitrates_kbps
  local n = #bitrates
  local v = segment_duration_s
  local throughput = math.max(last_throughput_kbps, 1)
  -- Gradient step: levels the link cannot sustain at this rate lose probability. As in dash.js
  -- the sign, once negative, stays so for the higher levels of the (ascending) ladder.
  local sign = 1
  for i = 1, n do
    if playback_rate * bitrates[i] > throughput then sign = -1 end
    state.w[i] = state.prev_w[i] + sign * (v / (2 * state.alpha)) * ((state.q + state.vl) * (playback_rate * bitrates[i] / throughput))
  end
  state.w = L.project_to_simplex(state.w)
  local diff = {}
  for i = 1, n do
    diff[i] = state.w[i] - state.prev_w[i]
    state.prev_w[i] = state.w[i]
  end
  state.q = math.max(0, state.q - v + v * playback_rate * ((dot(bitrates, state.prev_w) + dot(bitrates, diff)) / throughput))
  -- The level whose bitrate is nearest the expected bitrate under w (the first on ties).
  local expected = dot(state.w, bitrates)
  local level, best = 1, math.abs(bitrates[1] - expected)
  for i = 2, n do
    local distance = math.abs(bitrates[i] - expected)
    if distance < best then level, best = i, distance end
  end
  -- Cautious ascent: one level at a time while the next level fits the last throughput.
  if level > last_level and bitrates[last_level + 1] <= throughput then level = last_level + 1 end
  -- Against over-estimation: a level at or above the throughput raises Q for the next segment.
  if bitrates[level] >= throughput then state.q = state.react * math.max(state.vl, state.q) end
  return level
end

return L
