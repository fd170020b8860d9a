-- BOLA-BASIC: Lyapunov-optimal buffer-based adaptation.
-- Spiteri, Urgaonkar and Sitaraman, "BOLA: Near-Optimal Bitrate Adaptation for Online Videos",
-- IEEE INFOCOM 2016, doi:10.1109/INFOCOM.2016.7524428. Formulation as in Sabre (Spiteri et al.,
-- MMSys 2018): utility v_m = ln(R_m / R_1), V·p = (buffer capacity − segment) / (v_max + γp), and
-- the level maximising (V·p·(v_m + γp) − buffer) / R_m.

local M = {
  name = "BOLA",
  description = "BOLA-BASIC: maximises (V(v + gp) - buffer) / bitrate with log utilities.",
  params = {
    gp = 5,           -- γ·p, the weight of rebuffering avoidance (seconds-equivalent)
    capacity_s = 0,   -- buffer capacity BOLA plans for; 0 uses the player's maximum buffer
  },
}

local utilities = {}
local vp = 0

function M.setup(session)
  local kbps = session.levels_kbps
  for l = 1, #kbps do utilities[l] = math.log(kbps[l] / kbps[1]) end
  local capacity = M.params.capacity_s > 0 and M.params.capacity_s or session.max_buffer_s
  vp = (capacity - session.segment_duration_s) / (utilities[#kbps] + M.params.gp)
end

function M.choose(ctx)
  local best_level, best_score = 1, nil
  for l = 1, ctx.level_count do
    local score = (vp * (utilities[l] + M.params.gp) - ctx.buffer_s) / ctx.levels_kbps[l]
    if best_score == nil or score > best_score then
      best_level, best_score = l, score
    end
  end
  return best_level
end

return M
