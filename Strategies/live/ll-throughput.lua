-- dash.js's throughput rule in low-latency live mode: the highest level under 0.9 x the sliding-
-- window mean of the last throughput samples, shortened by the request's dead time.
-- Follows dash.js 4.x: src/streaming/rules/abr/ThroughputRule.js (getMaxIndex, applied whenever
-- the stream is dynamic), src/streaming/rules/ThroughputHistory.js (getSafeAverageThroughput with
-- the default sliding window: 3 samples live, widened by one for every step between consecutive
-- samples of x1.3 or more either way; latency the mean of the last 4) and
-- src/streaming/controllers/AbrController.js (getQualityForBitrate: bitrate x (1 - latency /
-- segment duration), level 1 when the latency exceeds a segment; the first segment at the level
-- of dash.js's 1000 kbps default start bitrate). The samples are the chunk-based throughputs of
-- the live profile (ctx.throughput_method == "chunk"), as dash.js measures low-latency downloads.
-- Spiteri, Sitaraman and Sparacio, "From Theory to Practice: Improving Bitrate Adaptation in the
-- DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953.

local dashjs = require("lib.dashjs_throughput")

local M = {
  name = "Low-latency throughput (dash.js)",
  description = "dash.js throughput rule for live: 0.9 x sliding mean of chunk throughputs, less the dead time.",
  params = {
    safety = 0.9,            -- abr.bandwidthSafetyFactor
    live_samples = 3,        -- abr.throughputHistory.averageThroughputSampleAmount.live
    latency_samples = 4,     -- abr.throughputHistory.averageLatencySampleAmount
    change_scale = 1.3,      -- throughputIncreaseScale and throughputDecreaseScale
    keep = 20,               -- abr.throughputHistory.maxMeasurementsToKeep
    start_kbps = 1000,       -- dash.js's default start bitrate for video
  },
  param_types = { live_samples = "integer", latency_samples = "integer", keep = "integer" },
}

-- The history (lib/dashjs_throughput.lua, loaded afresh for each session) with this script's settings.
local history

function M.setup()
  dashjs.live_samples = M.params.live_samples
  dashjs.latency_samples = M.params.latency_samples
  dashjs.scale = M.params.change_scale
  dashjs.keep = M.params.keep
  history = dashjs.new()
end

function M.on_download(report)
  if not report.abandoned then dashjs.record(history, report) end
end

function M.choose(ctx)
  local throughput = dashjs.average_kbps(history)
  if throughput == nil then
    return dashjs.level_for_bitrate(ctx.levels_kbps, ctx.segment_duration_s, M.params.start_kbps, nil)
  end
  local latency = dashjs.average_latency_s(history)
  return dashjs.level_for_bitrate(ctx.levels_kbps, ctx.segment_duration_s, throughput * M.params.safety, latency)
end

return M
