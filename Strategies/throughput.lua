-- dash.js THROUGHPUT rule: the highest level under a safety share of the throughput estimate.
-- Spiteri, Sitaraman and Sparacio, "From Theory to Practice: Improving Bitrate Adaptation in the
-- DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953. The estimate is dash.js's:
-- the smaller of a fast and a slow exponentially weighted moving average of throughput, each
-- weighted by download time and corrected for its start at zero.

local M = {
  name = "Throughput (dash.js)",
  description = "dash.js throughput rule: highest level under 0.9 x min(fast, slow) EWMA throughput.",
  params = {
    safety = 0.9,          -- share of the estimate a level may use
    fast_half_life_s = 3,  -- half-life of the fast average
    slow_half_life_s = 8,  -- half-life of the slow average
    first_level = 1,       -- level before any download (1-based)
  },
}

local fast, slow, weight_s = 0, 0, 0

function M.on_download(report)
  local p = M.params
  local fast_alpha = 0.5 ^ (report.download_time_s / p.fast_half_life_s)
  local slow_alpha = 0.5 ^ (report.download_time_s / p.slow_half_life_s)
  fast = fast_alpha * fast + (1 - fast_alpha) * report.throughput_kbps
  slow = slow_alpha * slow + (1 - slow_alpha) * report.throughput_kbps
  weight_s = weight_s + report.download_time_s
end

-- The corrected estimate, or nil before the first download.
local function estimate_kbps()
  if weight_s == 0 then return nil end
  local p = M.params
  local fast_estimate = fast / (1 - 0.5 ^ (weight_s / p.fast_half_life_s))
  local slow_estimate = slow / (1 - 0.5 ^ (weight_s / p.slow_half_life_s))
  return math.min(fast_estimate, slow_estimate)
end

function M.choose(ctx)
  local estimate = estimate_kbps()
  if estimate == nil then return math.min(M.params.first_level, ctx.level_count) end
  local level = 1
  for l = 1, ctx.level_count do
    if ctx.levels_kbps[l] <= M.params.safety * estimate then level = l end
  end
  return level
end

return M
