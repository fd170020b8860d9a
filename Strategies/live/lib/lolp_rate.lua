-- LoL+'s playback speed control: hybrid buffer/latency rule. Below the minimum buffer the player
-- slows down by how far the buffer is short; otherwise it speeds up or slows down by how far the
-- latency is from the target, and plays at 1 within 2 % of it. The rate follows a logistic curve
-- between 1 − cpr and 1 + cpr. Bentaleb et al., IEEE Trans. Multimedia 2022,
-- doi:10.1109/TMM.2021.3079288; dash.js src/streaming/controllers/CatchupController.js (dash.js 4.x
-- with the step mode, read at commit 02a46cb)
-- (_calculateNewPlaybackRateLolP, and _startPlaybackCatchUp's minimum rate change). In that file
-- _startPlaybackCatchUp overwrites the LoL+ rate with the default mode's (an `if` that should be
-- `else if`); this module keeps the LoL+ rule's own rate, as the paper describes.
-- Pure functions, without require.

local R = {}

local E = math.exp(1)   -- dash.js raises Math.E to a power rather than calling exp

-- (1 − cpr) + 2·cpr / (1 + e^(−5·delta)): 1 at delta 0, tending to 1 ± cpr.
local function logistic(cpr, delta)
  local d = delta * 5
  local s = (cpr * 2) / (1 + E ^ (-d))
  return (1 - cpr) + s
end

-- The rate LoL+ asks for. `rate_min` is the largest slow-down (negative, e.g. −0.5) and
-- `rate_max` the largest speed-up (e.g. 0.5), as dash.js's liveCatchup.playbackRate.
function R.target_rate(latency_s, target_latency_s, buffer_s, buffer_min_s, rate_min, rate_max)
  if buffer_s < buffer_min_s then
    return logistic(math.abs(rate_min), buffer_s - buffer_min_s)
  end
  if math.abs(latency_s - target_latency_s) <= 0.02 * target_latency_s then return 1 end
  local delta = latency_s - target_latency_s
  local cpr = delta < 0 and math.abs(rate_min) or rate_max
  return logistic(cpr, delta)
end

-- The rate the player then plays: dash.js changes the rate only by at least 0.02 per 0.5 of
-- maximum speed-up (so as not to flood the media element), or to exactly 1.
function R.applied_rate(current_rate, new_rate, rate_max)
  local min_change = 0.02 / (0.5 / rate_max)
  if math.abs(current_rate - new_rate) >= min_change or new_rate == 1 then return new_rate end
  return current_rate
end

return R
