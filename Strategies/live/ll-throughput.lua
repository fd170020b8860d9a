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

local throughputs, latencies = {}, {}

local function push(list, value)
  list[#list + 1] = value
  if #list > M.params.keep then table.remove(list, 1) end
end

function M.on_download(report)
  if report.abandoned then return end
  push(throughputs, report.throughput_kbps)
  push(latencies, report.latency_s)
end

-- ThroughputHistory._getSampleSize: a wider window when samples jump.
local function sample_size()
  local p = M.params
  local size = p.live_samples
  if size >= #throughputs then return #throughputs end
  for i = 1, p.live_samples - 1 do
    local ratio = throughputs[#throughputs - i + 1] / throughputs[#throughputs - i]
    if ratio >= p.change_scale or ratio <= 1 / p.change_scale then
      size = size + 1
      if size == #throughputs then break end
    end
  end
  return size
end

local function mean_of_last(list, count)
  local total = 0
  for i = #list - count + 1, #list do total = total + list[i] end
  return total / count
end

-- AbrController.getQualityForBitrate: the highest level at or under the bitrate.
local function level_for(ctx, kbps, latency_s)
  if latency_s and latency_s > 0 then
    if latency_s > ctx.segment_duration_s then return 1 end
    kbps = kbps * (1 - latency_s / ctx.segment_duration_s)
  end
  for level = ctx.level_count, 1, -1 do
    if kbps >= ctx.levels_kbps[level] then return level end
  end
  return 1
end

function M.choose(ctx)
  if #throughputs == 0 then return level_for(ctx, M.params.start_kbps, nil) end
  local throughput = mean_of_last(throughputs, sample_size()) * M.params.safety
  local latency = mean_of_last(latencies, math.min(M.params.latency_samples, #latencies))
  return level_for(ctx, throughput, latency)
end

return M
