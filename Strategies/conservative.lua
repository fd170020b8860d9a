-- The seed's Conservative strategy, written in the question form.
-- It plays exactly like the native `conservative`: the host asks initial_bitrate before the
-- first segment, then should_upgrade and, when that says nil, should_downgrade, with buffer
-- health = buffer / 30 s, the rebuffering ratio and the network quality
-- ("offline" … "excellent"). Bitrates are in bits per second; nil keeps the current one.
-- Seed specification: abrlab's core types (no paper).

local M = {
  name = "Conservative (seed, Lua)",
  description = "The seed default in Lua: starts by network quality, steps up on a good network with a healthy buffer, down on stalls or a poor network.",
  params = {
    buffer_health_threshold = 0.7,
    rebuffering_threshold = 0.05,
  },
}

local rank = { offline = 0, poor = 1, fair = 2, good = 3, excellent = 4 }

-- Index (1-based) of the first level at or above `bitrate`; nil above the ladder.
local function index_at_or_above(bitrate, levels)
  for i = 1, #levels do
    if levels[i] >= bitrate then return i end
  end
  return nil
end

function M.initial_bitrate(quality, levels)
  local n, q = #levels, rank[quality]
  if q <= rank.poor then return levels[1] end
  if q == rank.fair then return levels[n // 3 + 1] end
  if q == rank.good then return levels[n * 2 // 3 + 1] end
  return levels[n]
end

function M.should_upgrade(current, buffer_health, quality, levels)
  if rank[quality] < rank.good or buffer_health < M.params.buffer_health_threshold then return nil end
  local i = index_at_or_above(current, levels)
  if i == nil or i + 1 > #levels then return nil end
  return levels[i + 1]
end

function M.should_downgrade(current, rebuffering_ratio, quality, levels)
  local i = index_at_or_above(current, levels)
  if i == nil or i == 1 then return nil end
  if rebuffering_ratio >= M.params.rebuffering_threshold or rank[quality] <= rank.poor then
    return levels[i - 1]
  end
  return nil
end

return M
