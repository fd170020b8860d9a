-- PANDA: probe and adapt.
-- Li, Zhu, Gahm, Pan, Hu, Begen, Oran, "Probe and Adapt: Rate Adaptation for HTTP Video
-- Streaming At Scale", IEEE JSAC 32(4), 2014, doi:10.1109/JSAC.2014.140405 (arXiv:1305.0510).
--
-- Before request n, with T the time between the last two requests and x_meas the last
-- download's throughput (kbps):
--   1. estimate (probe): x = x + kappa * T * (omega - max(0, x - x_meas + omega)), additive
--      increase by omega per second, multiplicative back-off when the probe overshoots;
--   2. smooth: y = y - alpha * T * (y - x);
--   3. quantize with a dead zone: up to the highest level <= (1 - epsilon) * y only when the
--      last level is below it, down to the highest level <= y only when the last is above it;
--   4. schedule: the target time to the next request is level * tau / y + beta * (B - B_min);
--      the next request waits that long after this one, or for the download to end if that is
--      longer: the delay before a request is what the target leaves after the last download.
-- Parameters: the values the ns-3 DASH module (haraldott/dash, model/panda.cc) uses, which the
-- issue quotes: kappa 0.28 /s, omega 0.3 Mbps, alpha 0.2 /s, beta 0.2, epsilon 0.15, B_min 26 s.
-- The article's body could not be read (its stored copies give the abstract only), so no value or
-- step here rests on its text. Where panda.cc parts from the two implementations with a line to
-- the authors (Cisco's player viper, Panda.cpp; the first author's code as adapted in the
-- Hollywood client, panda.c) this script takes theirs: the dead zone's margins are epsilon * y up
-- and 0 down (panda.cc subtracts omega from both and compares whole Mbps) and x_meas is the bytes
-- measured. The pacing reads the buffer at this request (panda.cc the one at the previous
-- decision). Cisco's player probes at kappa 0.14 /s; docs/shared-link.md sets the four side by side.

---@type abrlab.Strategy
local M = {
  name = "PANDA",
  description = "PANDA: probe-and-adapt rate estimate, EWMA, dead-zone quantizer, buffer-paced requests.",
  params = {
    kappa = 0.28,        -- probing convergence rate, 1/s
    omega_kbps = 300,    -- probing additive increase, kbps per second
    alpha = 0.2,         -- smoothing convergence rate, 1/s
    beta = 0.2,          -- client buffer convergence rate
    epsilon = 0.15,      -- quantizer margin for up-switches
    min_buffer_s = 26,   -- B_min: the buffer the request pacing steers to
  },
}

local estimate_kbps, smoothed_kbps, target_interval_s

function M.setup(session)
  estimate_kbps, smoothed_kbps, target_interval_s = nil, nil, nil
end

-- The highest level whose bitrate is at most `kbps` (the lowest when none is).
local function highest_at_most(ctx, kbps)
  local level = 1
  for candidate = 2, ctx.level_count do
    if ctx.levels_kbps[candidate] <= kbps then level = candidate end
  end
  return level
end

function M.choose(ctx)
  local p = M.params
  local n = #ctx.throughputs_kbps
  if n == 0 then return 1 end
  local measured_kbps = ctx.throughputs_kbps[n]
  local download_s = ctx.download_times_s[n]
  local delay_s = 0
  local interval_s = download_s
  if target_interval_s ~= nil and target_interval_s > download_s then
    delay_s = target_interval_s - download_s
    interval_s = target_interval_s
  end
  if estimate_kbps == nil then
    estimate_kbps, smoothed_kbps = measured_kbps, measured_kbps
  else
    estimate_kbps = estimate_kbps
      + p.kappa * interval_s * (p.omega_kbps - math.max(0, estimate_kbps - measured_kbps + p.omega_kbps))
    estimate_kbps = math.max(estimate_kbps, 1)
    smoothed_kbps = smoothed_kbps - p.alpha * interval_s * (smoothed_kbps - estimate_kbps)
  end
  local last = ctx.last_level or 1
  local up = highest_at_most(ctx, (1 - p.epsilon) * smoothed_kbps)
  local down = highest_at_most(ctx, smoothed_kbps)
  local level = last
  if last < up then
    level = up
  elseif last > down then
    level = down
  end
  -- The buffer the pacing reads is the one at this request, after the delay has drained it.
  local buffer_s = math.max(0, ctx.buffer_s - delay_s)
  target_interval_s = ctx.levels_kbps[level] * ctx.segment_duration_s / smoothed_kbps + p.beta * (buffer_s - p.min_buffer_s)
  return level, delay_s
end

return M
