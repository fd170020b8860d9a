-- FESTIVE: fair, efficient and stable adaptation.
-- Jiang, Sekar and Zhang, "Improving Fairness, Efficiency, and Stability in HTTP-based Adaptive
-- Video Streaming with FESTIVE", ACM CoNEXT 2012, doi:10.1145/2413176.2413189.
--
-- Before each request after the first:
--   1. estimate: w, the harmonic mean of the last 20 throughputs (of all of them before 20);
--   2. schedule: a target buffer drawn uniformly from [30 s - delta, 30 s + delta), delta one
--      segment, with the session's seeded math.random; the request waits while the buffer is
--      above it (lib/randomized_scheduler.lua);
--   3. reference (stateful, gradual): with k the current level's 1-based index, one level up
--      once k segments in a row have played at level k and the highest level <= p x w is
--      higher; one level down at once when it is lower;
--   4. delayed update: between staying and the reference, the lower of
--      score_stability + alpha x score_efficiency, with score_stability 2^n for staying and
--      2^(n+1) for switching (n: switches in the last 20 s of session time) and
--      score_efficiency(b) = |b / min(w, b_ref) - 1|.
-- The article's body could not be read (its stored copies give the abstract only). The rule
-- rests on the slides that quote its design section (switches over the last 20 s; a stability gap
-- between switching and staying that grows with n), on Pensieve's port (getBitrateFestive:
-- p 0.85, alpha 12, 2^(n+1) against 2^n, one-level steps, a tie stays) and on the ns-3 DASH
-- module's festive.cc (haraldott/dash; 20 samples, the 30 s target and its +-1 segment);
-- docs/shared-link.md sets the four side by side and says where they part.

local scheduler = require("lib.randomized_scheduler")

---@type abrlab.Strategy
local M = {
  name = "FESTIVE",
  description = "FESTIVE: harmonic estimate, randomised scheduling, gradual switching, stability/efficiency trade-off.",
  params = {
    window = 20,            -- throughputs in the harmonic mean
    switch_window_s = 20,   -- seconds of session time whose switches count in the stability score
    target = 0.85,          -- p: share of the estimate the reference level aims at
    alpha = 12,             -- weight of efficiency against stability
    target_buffer_s = 30,   -- the buffer the randomised scheduling centres on
    delta_segments = 1,     -- half-width of its random target, in segment durations
    first_level = 1,
  },
  param_types = { window = "integer", first_level = "integer" },  -- overrides of these must be integers
}

local last_played            -- level of the latest completed download
local segments_at_level = 0  -- completed downloads in a row at last_played
local switch_times_s = {}    -- session time of the request of each segment that switched level
local request_s = 0          -- session time of the pending request

function M.on_download(report)
  if report.abandoned then return end
  if report.level == last_played then
    segments_at_level = segments_at_level + 1
  else
    if last_played ~= nil then switch_times_s[#switch_times_s + 1] = request_s end
    last_played = report.level
    segments_at_level = 1
  end
end

-- Harmonic mean of the last `window` throughputs.
function M.harmonic_mean_kbps(throughputs_kbps, window)
  local n = #throughputs_kbps
  local count, inverse_sum = 0, 0
  for i = math.max(1, n - window + 1), n do
    inverse_sum = inverse_sum + 1 / throughputs_kbps[i]
    count = count + 1
  end
  return count / inverse_sum
end

-- Switches whose requests went out after now_s - window_s.
local function recent_switches(now_s, window_s)
  local switches = 0
  for i = #switch_times_s, 1, -1 do
    if switch_times_s[i] <= now_s - window_s then break end
    switches = switches + 1
  end
  return switches
end

-- The reference level: stateful, at most one step from `current`.
function M.reference_level(levels_kbps, current, segments_at_current, aim_kbps)
  local target_level = 1
  for l = 1, #levels_kbps do
    if levels_kbps[l] <= aim_kbps then target_level = l end
  end
  if target_level > current and segments_at_current >= current then return current + 1 end
  if target_level < current then return current - 1 end
  return current
end

function M.choose(ctx)
  local p = M.params
  local current = ctx.last_level
  if current == nil then
    request_s = ctx.elapsed_s
    return math.min(p.first_level, ctx.level_count)
  end
  local estimate_kbps = M.harmonic_mean_kbps(ctx.throughputs_kbps, p.window)
  local delay_s = scheduler.delay_s(ctx.buffer_s, p.target_buffer_s, p.delta_segments * ctx.segment_duration_s)
  request_s = ctx.elapsed_s + delay_s

  -- After an abandonment the last level is the abandoned one; the state follows what played.
  local played = last_played or current
  local streak = played == current and segments_at_level or 0
  local reference = M.reference_level(ctx.levels_kbps, current, streak, p.target * estimate_kbps)
  if reference == current then return current, delay_s end

  local n = recent_switches(ctx.elapsed_s, p.switch_window_s)
  local denominator = math.min(estimate_kbps, ctx.levels_kbps[reference])
  local function score(level, stability)
    return stability + p.alpha * math.abs(ctx.levels_kbps[level] / denominator - 1)
  end
  if score(reference, 2 ^ (n + 1)) < score(current, 2 ^ n) then return reference, delay_s end
  return current, delay_s
end

return M
