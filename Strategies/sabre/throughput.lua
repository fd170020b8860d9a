-- Sabre's ThroughputRule: the highest level 0.9 × the throughput estimate sustains, an
-- insufficient-buffer rule (IBR) at low buffer, and abandonment of downloads that would take too long.
-- Spiteri, Nguyen and Sitaraman, "From Theory to Practice: Improving Bitrate Adaptation in the
-- DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953. Reproduces Sabre's
-- `-a throughput` under `--profile sabre`; times are kept in milliseconds as Sabre keeps them.

local M = {
  name = "Throughput (Sabre)",
  description = "Sabre's ThroughputRule: 0.9 x the EWMA estimate, insufficient-buffer rule, abandonment.",
  params = {
    safety = 0.9,          -- share of the estimate a level may use
    ibr = true,            -- insufficient-buffer rule on
    abandon_multiplier = 1.8, -- abandon when a download would take this many segment durations
    abandon_grace_s = 0.5, -- no abandonment in a download's first half second
  },
}

local S, bitrates, levels
local ibr_safety = 0.9
local latency_ms = 0
-- Abandoning needs the grace to have passed and a projected download time (progress.projected_s
-- in the player's terms) over the multiplier's share of a segment: the check asks to run again
-- only once both can hold.
-- Once even the lowest level's copy is no smaller than what is left, nothing can be abandoned
-- to: what is left only shrinks.
local recheck = { elapsed_s = 0, projected_s = 0 }
local NEVER = { elapsed_s = math.huge }

function M.setup(session)
  S = session.segment_duration_s * 1000
  bitrates = session.levels_kbps
  levels = #bitrates
  recheck.elapsed_s = M.params.abandon_grace_s
  recheck.projected_s = M.params.abandon_multiplier * session.segment_duration_s
end

-- Highest level whose segment, at `kbps`, arrives within a segment duration after the latency.
function M.quality_from_throughput(kbps, latency)
  local q = 1
  while q + 1 <= levels and latency + S * bitrates[q + 1] / kbps <= S do q = q + 1 end
  return q
end

function M.choose(ctx)
  -- Sabre fetches the first segment at the lowest level without asking the rule.
  if ctx.throughput_estimate_kbps == nil then return 1, 0 end
  local throughput = ctx.throughput_estimate_kbps or 0
  latency_ms = (ctx.latency_estimate_s or 0) * 1000
  local level_ms = ctx.buffer_s * 1000
  local q = M.quality_from_throughput(M.params.safety * throughput, latency_ms)
  if M.params.ibr then
    local safe = ibr_safety * (level_ms - latency_ms) * throughput
    ibr_safety = math.max(0.5, 0.9 * ibr_safety)
    for j = 1, q - 1 do
      if bitrates[j + 1] * S > safe then
        q = j
        break
      end
    end
  end
  return q, 0
end

function M.check_abandon(progress)
  local size = progress.size_bytes * 8
  local downloaded = progress.received_bytes * 8
  local left = size - downloaded
  local current = progress.level
  if size * bitrates[1] / bitrates[current] >= left then return nil, NEVER end
  local time = progress.elapsed_s * 1000
  local ttfb = progress.ttfb_s * 1000
  local dl = time - ttfb
  if time < M.params.abandon_grace_s * 1000 or dl <= 0 then return nil, recheck end
  local rate = downloaded / dl
  if time + left / rate > M.params.abandon_multiplier * S then
    local q = M.quality_from_throughput(M.params.safety * rate, latency_ms)
    if q < current and size * bitrates[q] / bitrates[current] < left then return q end
  end
  return nil, recheck
end

return M
