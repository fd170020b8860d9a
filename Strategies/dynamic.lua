-- dash.js DYNAMIC: the throughput rule while the buffer is low, BOLA once it is high.
-- Spiteri, Sitaraman and Sparacio, "From Theory to Practice: Improving Bitrate Adaptation in the
-- DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953. BOLA takes over when the
-- buffer reaches `bola_above_s` and hands back when it falls below `throughput_below_s`; the gap
-- between the two is the hysteresis that keeps the rules from flapping. The two rules are the
-- bola.lua and throughput.lua scripts beside this one, loaded with require.

local bola = require("bola")
local throughput = require("throughput")

local M = {
  name = "DYNAMIC (dash.js)",
  description = "Throughput rule at low buffer, BOLA at high buffer, with hysteresis (10 s up, 6 s down).",
  params = {
    bola_above_s = 10,        -- switch to BOLA at or above this buffer
    throughput_below_s = 6,   -- switch back to the throughput rule below this buffer
    safety = 0.9,             -- throughput rule: share of the estimate a level may use
    fast_half_life_s = 3,
    slow_half_life_s = 8,
    first_level = 1,
    gp = 5,                   -- BOLA's γp
    capacity_s = 0,           -- BOLA's buffer capacity; 0 uses the player's maximum buffer
  },
}

local using_bola = false

-- Hands this strategy's parameters to the rules it is built from.
function M.setup(session)
  for _, key in ipairs({ "safety", "fast_half_life_s", "slow_half_life_s", "first_level" }) do
    throughput.params[key] = M.params[key]
  end
  for _, key in ipairs({ "gp", "capacity_s" }) do bola.params[key] = M.params[key] end
  bola.setup(session)
end

function M.on_download(report) throughput.on_download(report) end

function M.choose(ctx)
  if using_bola and ctx.buffer_s < M.params.throughput_below_s then
    using_bola = false
  elseif not using_bola and ctx.buffer_s >= M.params.bola_above_s then
    using_bola = true
  end
  if using_bola then return bola.choose(ctx) end
  return throughput.choose(ctx)
end

return M
