-- Sabre's DYNAMIC: the throughput rule while the buffer is low, BOLA once it is high, both
-- asked at every decision; abandonment always by the throughput rule.
-- Spiteri, Nguyen and Sitaraman, "From Theory to Practice: Improving Bitrate Adaptation in the
-- DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953. Reproduces Sabre's
-- `-a dynamic` under `--profile sabre`. Built from the bola and throughput scripts beside it.

local bola = require("bola")
local throughput = require("throughput")

local M = {
  name = "DYNAMIC (Sabre)",
  description = "Sabre's DYNAMIC: throughput rule below 10 s of buffer, BOLA above while BOLA asks no more.",
  params = { threshold_s = 10 },
}

local using_bola = false

function M.setup(session)
  bola.setup(session)
  throughput.setup(session)
end

function M.choose(ctx)
  local level_ms = ctx.buffer_s * 1000
  local threshold = M.params.threshold_s * 1000
  local qb, db = bola.choose(ctx)
  local qt, dt = throughput.choose(ctx)
  if using_bola and level_ms < threshold and qb < qt then
    using_bola = false
  elseif not using_bola and level_ms > threshold and qb >= qt then
    using_bola = true
  end
  if using_bola then return qb, db end
  return qt, dt
end

function M.on_download(report)
  if report.replacement then using_bola = false end
end

M.check_abandon = throughput.check_abandon

return M
