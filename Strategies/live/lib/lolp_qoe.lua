-- LoL+'s QoE evaluation module: the per-segment QoE weights and a one-off QoE score.
-- Bentaleb, Akcay, Lim, Begen, Zimmermann, "Catching the Moment with LoL+ in Twitch-Like
-- Low-Latency Live Streaming Platforms", IEEE Trans. Multimedia 2022, doi:10.1109/TMM.2021.3079288;
-- as dash.js src/streaming/rules/abr/lolp/LoLpQoEEvaluator.js and QoeInfo.js have it (dash.js 4.x,
-- read at commit 7a49069).
-- Pure functions, without require.

local Q = {}

-- The weights for segments of `segment_duration_s` on a ladder from `min_kbps` to `max_kbps`:
-- bitrate reward = segment duration; switch penalty 1 (dash.js's choice over the challenge's
-- 0.02); rebuffer penalty = the top bitrate; latency penalty min_kbps × 0.05 per s up to 1.1 s,
-- max_kbps × 0.1 per s above; playback-rate penalty = the lowest bitrate.
function Q.weights(segment_duration_s, max_kbps, min_kbps)
  return {
    bitrate_reward = segment_duration_s,
    switch_penalty = 1,
    rebuffer_penalty = max_kbps,
    latency_threshold_s = 1.1,
    latency_penalty_low = min_kbps * 0.05,
    latency_penalty_high = max_kbps * 0.1,
    rate_penalty = min_kbps,
  }
end

-- The QoE of one segment played alone (no previous bitrate, so no switch term), in the units the
-- caller passes: dash.js passes the bitrate in bits/s here, and so do the callers that follow it.
function Q.single(weights, bitrate, rebuffer_s, latency_s, playback_rate)
  -- dash.js's second latency band ends at 1e8 s; beyond it no latency term applies.
  local latency_term = 0
  if latency_s <= weights.latency_threshold_s then
    latency_term = weights.latency_penalty_low * latency_s
  elseif latency_s <= 1e8 then
    latency_term = weights.latency_penalty_high * latency_s
  end
  return weights.bitrate_reward * bitrate - weights.rebuffer_penalty * rebuffer_s - latency_term
    - weights.rate_penalty * math.abs(1 - playback_rate)
end

return Q
