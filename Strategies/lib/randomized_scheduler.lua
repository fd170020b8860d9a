-- FESTIVE's randomised request scheduling, for any script that returns a request delay.
-- Jiang, Sekar and Zhang, "Improving Fairness, Efficiency, and Stability in HTTP-based Adaptive
-- Video Streaming with FESTIVE", ACM CoNEXT 2012, doi:10.1145/2413176.2413189.
--
-- Players that all wait for one fixed buffer level fall into step: they go idle and come back
-- together, and each sees the link's share of that synchronised ON-OFF pattern. FESTIVE randomises
-- the target; as the ns-3 DASH module's festive.cc does it, a fresh target buffer is drawn
-- uniformly around it, here from [target - delta, target + delta), before every request, and the
-- request waits for the buffer to drain to it: the delay is the buffer above the drawn target, 0
-- below.
-- The draw uses the session's math.random, which abrlab seeds with the session seed, so a session
-- schedules its requests the same way in every run and under every --jobs.
--
--   local scheduler = require("lib.randomized_scheduler")
--   local delay_s = scheduler.delay_s(ctx.buffer_s, 30, ctx.segment_duration_s)
--   return level, delay_s

local M = {}

-- A target buffer drawn uniformly from [target_s - delta_s, target_s + delta_s).
function M.draw_target_s(target_s, delta_s)
  return target_s - delta_s + 2 * delta_s * math.random()
end

-- The delay before the next request: the buffer above a freshly drawn target (0 when the
-- buffer is at or below it). One draw per call, whatever the buffer, so the sequence of draws
-- depends only on the number of requests.
function M.delay_s(buffer_s, target_s, delta_s)
  local drawn_s = M.draw_target_s(target_s, delta_s)
  if buffer_s > drawn_s then return buffer_s - drawn_s end
  return 0
end

return M
