-- LoL+'s bitrate selection: a self-organising map (SOM) with one neuron per level over the
-- features (throughput, latency, rebuffering, switch), all normalised. Each decision picks the
-- neuron nearest the target state (measured throughput, no latency, no rebuffering, no switch)
-- under weights from the weight selector, with a throughput weight of 100 pushing away from
-- levels the link cannot carry, then pulls the previous neuron towards the measured state and
-- the winner towards the target. Bentaleb, Akcay, Lim, Begen, Zimmermann, "Catching the Moment
-- with LoL+ in Twitch-Like Low-Latency Live Streaming Platforms", IEEE Trans. Multimedia 2022,
-- doi:10.1109/TMM.2021.3079288; as dash.js src/streaming/rules/abr/lolp/LearningAbrController.js
-- (dash.js 5.x, read at commit 10593c7) has it, with its k-means++ start for the first weights.
-- Pure functions, without require: the weight selector module and a random function are passed in.
-- Levels are 1-based; bitrates and throughputs are bits/s, as in dash.js.

local S = {}

S.latency_normalisation_s = 100   -- latencies enter the map divided by this
S.throughput_delta_bps = 10000    -- levels above throughput − this are pushed away
S.learning_rate = 0.01
S.sigma = 0.1                     -- neighbourhood width

-- Weighted Euclidean distance, signed as dash.js signs it (the sum is never negative here).
local function distance(a, b, w)
  local sum = 0
  for i = 1, 4 do
    local d = a[i] - b[i]
    sum = sum + w[i] * (d * d)
  end
  local sign = sum < 0 and -1 or 1
  return sign * math.sqrt(math.abs(sum))
end
S.distance = distance

local ones = { 1, 1, 1, 1 }

-- distance() between a neuron's state and the target (t, l, r, s) under weights w, without
-- building tables (the same operations in the same order).
local function state_distance(state, t, l, r, s, w)
  local d1, d2, d3, d4 = state.throughput - t, state.latency - l, state.rebuffer - r, state.switch - s
  local sum = 0
  sum = sum + w[1] * (d1 * d1)
  sum = sum + w[2] * (d2 * d2)
  sum = sum + w[3] * (d3 * d3)
  sum = sum + w[4] * (d4 * d4)
  local sign = sum < 0 and -1 or 1
  return sign * math.sqrt(math.abs(sum))
end

local function max_throughput(som)
  local best = 0
  for _, neuron in ipairs(som.neurons) do
    if neuron.state.throughput > best then best = neuron.state.throughput end
  end
  return best
end

-- k-means++ over n² random points in feature space gives n centres; they are ordered from the
-- least similar one by distance to it, and the last becomes the first weight vector.
local function initial_centres(som, random)
  local n = #som.neurons
  local top = max_throughput(som)
  local data = {}
  for i = 1, n * n do
    local t = random() * top
    local l = random()
    local b = random()
    local s = random()
    data[i] = { t, l, b, s }
  end
  local centres = { data[1] }
  for _ = 2, n do
    local next_point, farthest = nil, nil
    for _, point in ipairs(data) do
      local nearest = nil
      for _, centre in ipairs(centres) do
        local d = distance(point, centre, ones)
        if nearest == nil or d < nearest then nearest = d end
      end
      if farthest == nil or nearest > farthest then next_point, farthest = point, nearest end
    end
    centres[#centres + 1] = next_point
  end
  local least, largest = nil, nil
  for i, centre in ipairs(centres) do
    local total = 0
    for j, other in ipairs(centres) do
      if i ~= j then total = total + distance(centre, other, ones) end
    end
    if largest == nil or total > largest then least, largest = i, total end
  end
  local sorted = { table.remove(centres, least) }
  while #centres > 0 do
    local index, nearest = nil, nil
    for i, centre in ipairs(centres) do
      local d = distance(sorted[1], centre, ones)
      if nearest == nil or d < nearest then index, nearest = i, d end
    end
    sorted[#sorted + 1] = table.remove(centres, index)
  end
  return sorted
end

-- A map for a ladder of `bitrates_bps` (lowest first); `random` returns numbers in [0, 1).
function S.new(bitrates_bps, random)
  local squares = 0
  for _, b in ipairs(bitrates_bps) do squares = squares + b * b end
  local norm = math.sqrt(squares)
  local som = { neurons = {}, norm = norm, min_bitrate_bps = math.huge, weights = nil }
  for level, b in ipairs(bitrates_bps) do
    som.neurons[level] = {
      level = level,
      bitrate_bps = b,
      state = { throughput = b / norm, latency = 0, rebuffer = 0, switch = 0 },
    }
    if b < som.min_bitrate_bps then som.min_bitrate_bps = b end
  end
  som.centres = initial_centres(som, random)
  return som
end

-- Moves every neuron towards `x` by the learning rate times its Gaussian neighbourhood to
-- `winner`; neurons update in ladder order, so later ones measure against the moved winner.
local function update(som, winner, x)
  local w = winner.state
  for _, neuron in ipairs(som.neurons) do
    local d = state_distance(neuron.state, w.throughput, w.latency, w.rebuffer, w.switch, ones)
    local neighbourhood = math.exp(-1 * (d * d) / (2 * (S.sigma * S.sigma)))
    local s = neuron.state
    s.throughput = s.throughput + (x[1] - s.throughput) * S.learning_rate * neighbourhood
    s.latency = s.latency + (x[2] - s.latency) * S.learning_rate * neighbourhood
    s.rebuffer = s.rebuffer + (x[3] - s.rebuffer) * S.learning_rate * neighbourhood
    s.switch = s.switch + (x[4] - s.switch) * S.learning_rate * neighbourhood
  end
end

-- The highest level below the current one that the throughput carries, else the current one.
local function down_shift(som, current, throughput_bps)
  local best_bitrate, result = 0, current
  for _, n in ipairs(som.neurons) do
    if n.bitrate_bps < current.bitrate_bps and n.bitrate_bps > best_bitrate and throughput_bps > n.bitrate_bps then
      best_bitrate, result = n.bitrate_bps, n
    end
  end
  return result
end

-- The next level (1-based) given the throughput (bits/s), live latency (s), buffer (s), playback
-- rate, the current level, and a weight selector (`weights` module and its selector object).
function S.next_level(som, throughput_bps, latency_s, buffer_s, playback_rate, current_level, weights, selector)
  local tn = throughput_bps / som.norm
  if tn > 1 then tn = max_throughput(som) end
  local latency = latency_s / S.latency_normalisation_s
  local current = som.neurons[current_level]
  local download_time = current.bitrate_bps * selector.segment_duration_s / throughput_bps
  local rebuffer = math.max(0, download_time - buffer_s)
  -- A download that would leave less than the minimum buffer steps down at once.
  if buffer_s - download_time < selector.buffer_min_s then
    return down_shift(som, current, throughput_bps).level
  end
  if som.weights == nil then som.weights = som.centres[#som.centres] end
  local found = weights.find(selector, som.neurons, latency_s, buffer_s, throughput_bps, playback_rate)
  if found ~= nil then som.weights = found end
  local winner, nearest = nil, nil
  local pushed = { 100, som.weights[2], som.weights[3], som.weights[4] }
  for _, neuron in ipairs(som.neurons) do
    local w = som.weights
    local next_buffer = weights.next_buffer_with_bitrate(selector, neuron.bitrate_bps, buffer_s, throughput_bps)
    if neuron.bitrate_bps > throughput_bps - S.throughput_delta_bps or next_buffer < selector.buffer_min_s then
      if neuron.bitrate_bps ~= som.min_bitrate_bps then w = pushed end
    end
    local d = state_distance(neuron.state, tn, 0, 0, 0, w)
    if nearest == nil or d < nearest then winner, nearest = neuron, d end
  end
  local switch = math.abs(current.bitrate_bps - winner.bitrate_bps) / som.norm
  update(som, current, { tn, latency, rebuffer, switch })
  update(som, winner, { tn, 0, 0, switch })
  return winner.level
end

return S
