-- BOLA's abandonment checks (bola.lua, bolae.lua): the lower level a download is abandoned for,
-- and, when it goes on, when it can first be abandoned, so the player skips the checks before
-- that (see check_abandon's recheck in docs/lua-api.md).
--
-- Both checks abandon from level c to a lower q only if q's copy of the segment,
-- o_q = size·b_q/b_c bits, is smaller than what is left, r, and (A_q − β)/o_q > (A_c − β)/r,
-- with A = Vp·(gp + u) and β the buffer the check reads (ms); that is when
-- β < θ_q = (r·A_q − o_q·A_c)/(r − o_q). While A_c ≥ A_q, θ_q grows with r, and r only
-- shrinks during a download, so no later step abandons while β stays at or above the largest
-- θ_q of now. β only falls as the download goes on, which gives the time to check again.

local M = {}

-- Rounding allowance (ms) before the bound says a download can never be abandoned.
local SLACK_MS = 1e-3

local never = { elapsed_s = math.huge }
local later = { elapsed_s = 0 }

-- The level below `current` to abandon for, or nil: the first whose copy is smaller than `left`
-- bits and whose (A_q − buffer)/o_q beats `score` and every level before it that did.
function M.lower_level(vp, gp, utilities, bitrates, current, size, left, buffer, score)
  local best
  for q = 1, current - 1 do
    local other_size = size * bitrates[q] / bitrates[current]
    local other = (vp * (gp + utilities[q]) - buffer) / other_size
    if other_size < left and other > score then best, score = q, other end
  end
  return best
end

-- The largest θ_q (ms) over the levels below `current` whose copy is smaller than `remaining`
-- bits: -math.huge when there is none, nil when some A_q exceeds A_c (no bound then).
function M.buffer_threshold(vp, gp, utilities, bitrates, current, size, remaining)
  local top = vp * (gp + utilities[current])
  local threshold = -math.huge
  for q = 1, current - 1 do
    local a = vp * (gp + utilities[q])
    if a > top then return nil end
    local other_size = size * bitrates[q] / bitrates[current]
    if other_size < remaining then
      local theta = (remaining * a - other_size * top) / (remaining - other_size)
      if theta > threshold then threshold = theta end
    end
  end
  return threshold
end

-- The recheck for a check that reads β = max(0, progress.buffer_s·1000 + offset_ms), where
-- buffer_s falls by the time elapsed until it is 0 and offset_ms is fixed during the download:
-- nil (the next step) while β may already be below `threshold`, else the elapsed time at
-- which it can be, or never.
function M.recheck(progress, threshold, offset_ms)
  if threshold == nil then return nil end
  if threshold < math.max(0, offset_ms) - SLACK_MS then return never end
  local buffer = progress.buffer_s * 1000
  if buffer <= 0 then return nil end
  later.elapsed_s = progress.elapsed_s + (buffer + offset_ms - threshold) / 1000
  return later
end

return M
