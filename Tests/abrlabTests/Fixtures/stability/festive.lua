-- FESTIVE as Strategies/festive.lua was before issue 31 made it follow the paper: no request
-- scheduling, switches counted over 20 downloads, 2^(n+1) against p x estimate. Frozen here so
-- that ProfileStabilityTests keeps checking the engine against hashes made with this rule.
-- FESTIVE: fair, efficient and stable adaptation.
-- Jiang, Sekar and Zhang, "Improving Fairness, Efficiency, and Stability in HTTP-based Adaptive
-- Video Streaming with FESTIVE", ACM CoNEXT 2012, doi:10.1145/2413176.2413189.
-- The estimate is the harmonic mean of the last 20 throughputs. The reference level moves up one
-- step only after the current level has played for as many segments as its (1-based) index,
-- and down one step at once. Between staying and the reference it picks the lower cost of
-- stability (2 to the number of recent switches, one more if it switches) plus alpha times
-- efficiency (|bitrate / min(p x estimate, reference bitrate) - 1|).

local M = {
  name = "FESTIVE",
  description = "FESTIVE: harmonic estimate, gradual up-switching, stability/efficiency trade-off.",
  params = {
    window = 20,       -- downloads in the harmonic mean and in the switch count
    target = 0.85,     -- p: share of the estimate aimed at
    alpha = 12,        -- weight of efficiency against stability
    first_level = 1,
  },
  param_types = { window = "integer", first_level = "integer" },  -- overrides of these must be integers
}

local levels_played = {}
local segments_at_level = 0

function M.on_download(report)
  local n = #levels_played
  if n > 0 and levels_played[n] == report.level then
    segments_at_level = segments_at_level + 1
  else
    segments_at_level = 1
  end
  levels_played[n + 1] = report.level
end

local function recent_switches()
  local n, switches = #levels_played, 0
  for i = math.max(2, n - M.params.window + 1), n do
    if levels_played[i] ~= levels_played[i - 1] then switches = switches + 1 end
  end
  return switches
end

function M.choose(ctx)
  local p = M.params
  local current = ctx.last_level
  if current == nil then return math.min(p.first_level, ctx.level_count) end
  local history = ctx.throughputs_kbps
  local n = #history
  local inverse_sum = 0
  for i = math.max(1, n - p.window + 1), n do inverse_sum = inverse_sum + 1 / history[i] end
  local aim_kbps = p.target * (math.min(n, p.window) / inverse_sum)

  local target_level = 1
  for l = 1, ctx.level_count do
    if ctx.levels_kbps[l] <= aim_kbps then target_level = l end
  end
  local reference = current
  if target_level > current and segments_at_level >= current then
    reference = current + 1
  elseif target_level < current then
    reference = current - 1
  end
  if reference == current then return current end

  local switches = recent_switches()
  local function cost(level)
    local stability = 2 ^ (switches + (level ~= current and 1 or 0))
    local denominator = math.min(aim_kbps, ctx.levels_kbps[reference])
    local efficiency = math.abs(ctx.levels_kbps[level] / denominator - 1)
    return stability + p.alpha * efficiency
  end
  if cost(reference) < cost(current) then return reference end
  return current
end

return M
