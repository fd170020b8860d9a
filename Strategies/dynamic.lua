-- dash.js DYNAMIC: the throughput rule while the buffer is low, BOLA once it is high.
-- Spiteri, Sitaraman and Sparacio, "From Theory to Practice: Improving Bitrate Adaptation in the
-- DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953. BOLA takes over when the
-- buffer reaches `bola_above_s` and hands back when it falls below `throughput_below_s`; the gap
-- between the two is the hysteresis that keeps the rules from flapping.
-- Scripts cannot load each other, so the two rules are written out here as in throughput.lua
-- and bola.lua.

local M = {
  name = "DYNAMIC (dash.js)",
  description = "Throughput rule at low buffer, BOLA at high buffer, with hysteresis (10 s up, 6 s down).",
  params = {
    bola_above_s = 10,        -- switch to BOLA at or above this buffer
    throughput_below_s = 6,   -- switch back to the throughput rule below this buffer
    safety = 0.9,
    fast_half_life_s = 3,
    slow_half_life_s = 8,
    gp = 5,
    capacity_s = 0,           -- BOLA's buffer capacity; 0 uses the player's maximum buffer
    first_level = 1,
  },
}

local fast, slow, weight_s = 0, 0, 0
local utilities, vp = {}, 0
local using_bola = false

function M.setup(session)
  local kbps = session.levels_kbps
  for l = 1, #kbps do utilities[l] = math.log(kbps[l] / kbps[1]) end
  local capacity = M.params.capacity_s > 0 and M.params.capacity_s or session.max_buffer_s
  vp = (capacity - session.segment_duration_s) / (utilities[#kbps] + M.params.gp)
end

function M.on_download(report)
  local p = M.params
  local fast_alpha = 0.5 ^ (report.download_time_s / p.fast_half_life_s)
  local slow_alpha = 0.5 ^ (report.download_time_s / p.slow_half_life_s)
  fast = fast_alpha * fast + (1 - fast_alpha) * report.throughput_kbps
  slow = slow_alpha * slow + (1 - slow_alpha) * report.throughput_kbps
  weight_s = weight_s + report.download_time_s
end

local function throughput_level(ctx)
  local p = M.params
  if weight_s == 0 then return math.min(p.first_level, ctx.level_count) end
  local estimate = math.min(fast / (1 - 0.5 ^ (weight_s / p.fast_half_life_s)),
                            slow / (1 - 0.5 ^ (weight_s / p.slow_half_life_s)))
  local level = 1
  for l = 1, ctx.level_count do
    if ctx.levels_kbps[l] <= p.safety * estimate then level = l end
  end
  return level
end

local function bola_level(ctx)
  local best_level, best_score = 1, nil
  for l = 1, ctx.level_count do
    local score = (vp * (utilities[l] + M.params.gp) - ctx.buffer_s) / ctx.levels_kbps[l]
    if best_score == nil or score > best_score then best_level, best_score = l, score end
  end
  return best_level
end

function M.choose(ctx)
  if using_bola and ctx.buffer_s < M.params.throughput_below_s then
    using_bola = false
  elseif not using_bola and ctx.buffer_s >= M.params.bola_above_s then
    using_bola = true
  end
  if using_bola then return bola_level(ctx) end
  return throughput_level(ctx)
end

return M
