-- RobustMPC, as Pensieve's sim/mpc.py implements it.
-- Yin et al., "A Control-Theoretic Approach for Dynamic Adaptive Video Streaming over HTTP",
-- SIGCOMM 2015, doi:10.1145/2785956.2787486; baseline code of Mao et al., "Neural Adaptive Video
-- Streaming with Pensieve", SIGCOMM 2017, doi:10.1145/3098822.3098843.
--
-- Each download gives a sample, bytes / delay (latency included), in MB/s. The prediction is the
-- harmonic mean of the last five samples divided by one plus the largest of the last five
-- relative errors of earlier predictions: that is this script's part, so copy it to try another
-- predictor. The search is ctx:mpc_search, abrlab's one MPC search (docs/lua-api.md; the code
-- robust_mpc-native runs too): over min(5, segments left) segments it scores every level
-- sequence by bitrate (Mbps) - 4.3 x predicted rebuffering (s) - switches (Mbps), starting from
-- the current level, with the buffer growing by a segment each step and not capped; the first
-- level of the best sequence plays, ties going to the sequence that comes later in
-- lexicographic order, exactly what Pensieve's flat enumeration picks.
-- Pensieve reads sizes one segment ahead of the one being chosen: lookahead_offset = 1, the
-- default (as for the native robust_mpc-native), reproduces it (and its total of
-- 94.1626876599077 on norway_bus_1); lookahead_offset = 0 reads the sizes of the segments being
-- chosen, as Yin et al. describe.

local M = {
  name = "RobustMPC",
  description = "RobustMPC as in Pensieve: error-discounted harmonic prediction, 5-segment look-ahead search.",
  params = {
    horizon = 5,
    first_level = 2,
    lookahead_offset = 1,
    rebuffer_penalty = 4.3,
    smoothness_penalty = 1,
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
  local level = ctx:mpc_search(bandwidth, p.horizon, p.lookahead_offset, p.rebuffer_penalty, p.smoothness_penalty)
  return level  -- the search's second result, the best sequence's reward, goes unused
end

return M
