-- Sabre's DYNAMIC with BOLA-E, as in dash.js: the throughput rule below 5 s of buffer, BOLA-E
-- above 10 s, only the active rule asked; abandonment by the active rule.
-- Spiteri, Nguyen and Sitaraman, "From Theory to Practice: Improving Bitrate Adaptation in the
-- DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953. Reproduces Sabre's
-- `-a dynamicdash` under `--profile sabre`. Built from the bolae and throughput scripts beside it.

local bolae = require("bolae")
local throughput = require("throughput")

local M = {
  name = "DYNAMIC-DASH (Sabre)",
  description = "Sabre's dash.js DYNAMIC: throughput rule below 5 s, BOLA-E above 10 s, hysteresis between.",
  params = { low_s = 5, high_s = 10 },
}

local using_bola = false

function M.setup(session)
  bolae.setup(session)
  throughput.setup(session)
end

function M.choose(ctx)
  local level_ms = ctx.buffer_s * 1000
  if using_bola and level_ms < M.params.low_s * 1000 then
    using_bola = false
  elseif not using_bola and level_ms > M.params.high_s * 1000 then
    using_bola = true
  end
  if using_bola then return bolae.choose(ctx) end
  return throughput.choose(ctx)
end

function M.on_wait(wait) bolae.on_wait(wait) end

function M.on_download(report) bolae.on_download(report) end

function M.check_abandon(progress)
  if using_bola then return bolae.check_abandon(progress) end
  return throughput.check_abandon(progress)
end

return M
