-- RB: rate-based adaptation on the harmonic mean of recent throughput.
-- The rate-based baseline of Yin et al., "A Control-Theoretic Approach for Dynamic Adaptive
-- Video Streaming over HTTP", SIGCOMM 2015, doi:10.1145/2785956.2787486, as used by Pensieve
-- (Mao et al., SIGCOMM 2017, doi:10.1145/3098822.3098843): the highest level whose bitrate is at
-- or below the harmonic mean of the last five downloads' throughput.

local M = {
  name = "RB",
  description = "Rate-based: highest level at or below the harmonic mean of the last 5 throughputs.",
  params = {
    window = 5,       -- downloads in the harmonic mean
    first_level = 1,  -- level of the first segment (1-based)
  },
  param_types = { window = "integer", first_level = "integer" },  -- overrides of these must be integers
}

function M.choose(ctx)
  local p = M.params
  local history = ctx.throughputs_kbps
  local n = #history
  if n == 0 then return math.min(p.first_level, ctx.level_count) end
  local first = math.max(1, n - p.window + 1)
  local inverse_sum = 0
  for i = first, n do inverse_sum = inverse_sum + 1 / history[i] end
  local estimate_kbps = (n - first + 1) / inverse_sum
  local level = 1
  for l = 1, ctx.level_count do
    if ctx.levels_kbps[l] <= estimate_kbps then level = l end
  end
  return level
end

return M
