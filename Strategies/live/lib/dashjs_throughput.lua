-- dash.js's throughput history as its low-latency rules read it: the sliding-window average of
-- the last 3 throughput samples of a live stream, widened by one sample for each recent
-- neighbour-to-neighbour ratio beyond 1.3× either way; the latency (time to first byte) averaged
-- over the last 4 requests. dash.js v4.x src/streaming/rules/ThroughputHistory.js (read at commit
-- 015f84d; getAverageSlidingWindow, _getSampleSize, getSafeAverageThroughput), with its default
-- settings (movingAverageMethod slidingWindow, averageThroughputSampleAmount.live 3,
-- averageLatencySampleAmount 4, throughputIncrease/DecreaseScale 1.3, maxMeasurementsToKeep 20);
-- and the level for a bitrate as AbrController.js picks it.
-- The samples are the engine's throughput per download (chunk-based on live, as dash.js's
-- low-latency measurement, FetchLoader.js, excludes the time between chunks).
-- Pure functions, without require.

local T = {}

T.live_samples = 3
T.latency_samples = 4
T.scale = 1.3
T.keep = 20

function T.new()
  return { throughputs_kbps = {}, latencies_s = {} }
end

-- Checks a strategy's `estimate` parameter: "dashjs" (this history) or "profile" (the profile's
-- estimate in ctx).
function T.check_estimate_param(value)
  if value ~= "dashjs" and value ~= "profile" then
    error("param estimate must be \"dashjs\" or \"profile\", not \"" .. tostring(value) .. "\"", 2)
  end
end

local function push(list, value)
  list[#list + 1] = value
  if #list > T.keep then table.remove(list, 1) end
end

-- Records one download: its throughput (kbps) and time to first byte (s).
function T.push(history, throughput_kbps, latency_s)
  push(history.throughputs_kbps, throughput_kbps)
  push(history.latencies_s, latency_s)
end

-- Samples the throughput average covers: 3, plus one for each ratio between consecutive recent
-- samples at or beyond 1.3 (or 1/1.3); the loop runs over the widened window, as dash.js's does.
function T.sample_size(samples)
  local n = #samples
  local size = T.live_samples
  if size >= n then return n end
  local i = 1
  while i < size do
    local ratio = samples[n - i + 1] / samples[n - i]
    if ratio >= T.scale or ratio <= 1 / T.scale then
      size = size + 1
      if size == n then break end
    end
    i = i + 1
  end
  return size
end

local function mean_of_last(samples, count)
  if count == 0 then return nil end
  local total = samples[#samples - count + 1]
  for k = #samples - count + 2, #samples do total = total + samples[k] end
  return total / count
end

-- Records a download from its report (on_download's argument).
function T.record(history, report)
  T.push(history, report.throughput_kbps, report.latency_s)
end

-- The average throughput, kbps; nil before any sample.
function T.average_kbps(history)
  local samples = history.throughputs_kbps
  return mean_of_last(samples, T.sample_size(samples))
end

-- dash.js's AbrController.getQualityForBitrate: the highest level (1-based) whose bitrate fits
-- `kbps`, after reducing it by the share of a segment the request latency takes (the dead time;
-- level 1 when the latency exceeds a segment). `latency_s` may be nil.
function T.level_for_bitrate(levels_kbps, segment_duration_s, kbps, latency_s)
  if latency_s and latency_s > 0 then
    if latency_s > segment_duration_s then return 1 end
    kbps = kbps * (1 - latency_s / segment_duration_s)
  end
  for level = #levels_kbps, 1, -1 do
    if kbps >= levels_kbps[level] then return level end
  end
  return 1
end

-- The throughput (kbps) and latency (s) a strategy decides on: this history's averages, or with
-- `estimate` "profile" the profile's estimates in ctx; nil, nil before any download.
function T.estimate(history, ctx, estimate)
  if estimate == "profile" then return ctx.throughput_estimate_kbps, ctx.latency_estimate_s end
  return T.average_kbps(history), T.average_latency_s(history)
end

-- The average time to first byte, s; nil before any sample.
function T.average_latency_s(history)
  local samples = history.latencies_s
  return mean_of_last(samples, math.min(T.latency_samples, #samples))
end

return T
