-- RobustMPC, as Pensieve's sim/mpc.py implements it.
-- Yin et al., "A Control-Theoretic Approach for Dynamic Adaptive Video Streaming over HTTP",
-- SIGCOMM 2015, doi:10.1145/2785956.2787486; baseline code of Mao et al., "Neural Adaptive Video
-- Streaming with Pensieve", SIGCOMM 2017, doi:10.1145/3098822.3098843.
--
-- Each download gives a sample, bytes / delay (latency included), in MB/s. The prediction is the
-- harmonic mean of the last five samples divided by one plus the largest of the last five
-- relative errors of earlier predictions. Over min(5, segments left) segments every level
-- sequence is scored by bitrate (Mbps) - 4.3 x predicted rebuffering (s) - switches (Mbps),
-- starting from the current level, with the buffer growing by a segment each step and not
-- capped; the first level of the best sequence plays, ties going to the sequence that comes
-- later in lexicographic order. A depth-first search shares prefixes and skips subtrees whose
-- optimistic bound falls short of the best found, which picks exactly what the flat
-- enumeration picks.
-- Pensieve reads sizes one segment ahead of the one being chosen: lookahead_offset = 1, the
-- default (as for the native robust_mpc-native), reproduces it (and its total of
-- 94.1626876599077 on norway_bus_1); lookahead_offset = 0 reads the sizes of the segments being
-- chosen, as Yin et al. describe.
-- By default the search runs natively through ctx:mpc_search, the same search in C (10 levels
-- over 5 segments is 10^5 sequences); native_search = false runs the Lua search below, which
-- chooses exactly the same levels.

local M = {
  name = "RobustMPC",
  description = "RobustMPC as in Pensieve: error-discounted harmonic prediction, 5-segment look-ahead search.",
  params = {
    horizon = 5,
    first_level = 2,
    lookahead_offset = 1,
    rebuffer_penalty = 4.3,
    smoothness_penalty = 1,
    native_search = true,
  },
  param_types = { horizon = "integer", first_level = "integer", lookahead_offset = "integer" },  -- overrides of these must be integers
}

local samples, errors = {}, {}
local last_prediction = nil

function M.on_download(report)
  local sample = report.size_bytes / (report.download_time_s * 1000) / 1000
  errors[#errors + 1] = last_prediction and math.abs(last_prediction - sample) / sample or 0
  samples[#samples + 1] = sample
  local n = #samples
  local first = math.max(1, n - 4)
  local inverse_sum = 0
  for i = first, n do inverse_sum = inverse_sum + 1 / samples[i] end
  last_prediction = 1 / (inverse_sum / (n - first + 1))
end

-- Search state, reused across decisions.
local times, kbps = {}, nil
local depth, level_count, segment_s, rebuffer_penalty, smoothness_penalty = 0, 0, 0, 0, 0
local best, path, best_path = 0, {}, {}

-- What positions `from`…depth can add at best: each step's top bitrate less the rebuffering it
-- must cause even if the buffer grew by a whole segment at every step.
local function optimistic_gain(from, buffer)
  local gain, ceiling = 0, buffer
  for step = from, depth do
    local row, step_best = times[step], -math.huge
    for l = 1, level_count do
      local shortfall = row[l] - ceiling
      local value = kbps[l] / 1000 - rebuffer_penalty * (shortfall > 0 and shortfall or 0)
      if value > step_best then step_best = value end
    end
    gain = gain + step_best
    ceiling = ceiling + segment_s
  end
  return gain
end

local function later(a, b)
  for i = 1, depth do
    if a[i] ~= b[i] then return a[i] > b[i] end
  end
  return false
end

local function explore(position, buffer, rebuffer, bitrate_sum, switches, last)
  if position > depth then
    local reward = bitrate_sum / 1000 - rebuffer_penalty * rebuffer - smoothness_penalty * switches / 1000
    if reward > best or (reward == best and later(path, best_path)) then
      best = reward
      for i = 1, depth do best_path[i] = path[i] end
    end
    return
  end
  if position > 1 then
    local so_far = bitrate_sum / 1000 - rebuffer_penalty * rebuffer - smoothness_penalty * switches / 1000
    local slack = 1e-9 * math.max(1, math.abs(best))
    if so_far + optimistic_gain(position, buffer) < best - slack then return end
  end
  local row = times[position]
  for level = level_count, 1, -1 do
    local download = row[level]
    local next_buffer, next_rebuffer = buffer, rebuffer
    if next_buffer < download then
      next_rebuffer = next_rebuffer + (download - next_buffer)
      next_buffer = 0
    else
      next_buffer = next_buffer - download
    end
    path[position] = level
    explore(position + 1, next_buffer + segment_s, next_rebuffer, bitrate_sum + kbps[level],
            switches + math.abs(kbps[level] - kbps[last]), level)
  end
end

function M.choose(ctx)
  local p = M.params
  if ctx.last_level == nil or last_prediction == nil then
    return math.min(p.first_level, ctx.level_count)
  end
  local max_error = 0
  for i = math.max(1, #errors - 4), #errors do
    if errors[i] > max_error then max_error = errors[i] end
  end
  local bandwidth = last_prediction / (1 + max_error)
  if p.native_search then
    return (ctx:mpc_search(bandwidth, p.horizon, p.lookahead_offset, p.rebuffer_penalty, p.smoothness_penalty))
  end

  depth = math.min(p.horizon, ctx.segment_count - ctx.segment_index + 1)
  level_count, segment_s, kbps = ctx.level_count, ctx.segment_duration_s, ctx.levels_kbps
  rebuffer_penalty, smoothness_penalty = p.rebuffer_penalty, p.smoothness_penalty
  local first_segment = ctx.segment_index + p.lookahead_offset
  for position = 1, depth do
    local row = times[position] or {}
    times[position] = row
    for l = 1, level_count do
      row[l] = (ctx.size_bytes(first_segment + position - 1, l) / 1000000) / bandwidth
    end
  end
  best = -math.huge
  for i = 1, depth do best_path[i] = 0 end
  explore(1, ctx.buffer_s, 0, 0, 0, ctx.last_level)
  return best_path[1]
end

return M
