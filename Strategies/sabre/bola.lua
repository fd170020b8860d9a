-- Sabre's BOLA (BOLA-U style by default): Lyapunov buffer-based adaptation with a throughput cap
-- on up-switches and abandonment of downloads whose score a lower level beats.
-- Spiteri, Urgaonkar and Sitaraman, "BOLA: Near-Optimal Bitrate Adaptation for Online Videos",
-- IEEE INFOCOM 2016, doi:10.1109/INFOCOM.2016.7524428; as implemented in Sabre (Spiteri, Nguyen,
-- Sitaraman, ACM MMSys 2018, doi:10.1145/3204949.3204953). Reproduces Sabre's `-a bola` under
-- `--profile sabre`; times are in milliseconds as Sabre keeps them.

local throughput_rule = require("throughput")
local abandon = require("lib.bola_abandon")

local M = {
  name = "BOLA (Sabre)",
  description = "Sabre's BOLA-U: V(u + gp) buffer rule, throughput-capped up-switches, abandonment.",
  params = {
    gp = 5,               -- γp, added to every utility
    basic = false,        -- BOLA-BASIC: fixed Vp, no abandonment (Sabre's -ab)
    oscillation = false,  -- BOLA-O: up-switch to the throughput level and wait (Sabre's -ao)
  },
}

local S, bitrates, levels, segments, capacity
local utilities = {}
local vp = 0
local last = 1
local NEVER = { elapsed_s = math.huge }

function M.setup(session)
  throughput_rule.setup(session)
  S = session.segment_duration_s * 1000
  bitrates = session.levels_kbps
  levels = #bitrates
  segments = session.segment_count
  capacity = session.max_buffer_s * 1000
  for q = 1, levels do utilities[q] = math.log(bitrates[q]) - math.log(bitrates[1]) end
  vp = (capacity - S) / (utilities[levels] + M.params.gp)
  last = 1
end

function M.choose(ctx)
  -- Sabre fetches the first segment at the lowest level without asking the rule.
  if ctx.throughput_estimate_kbps == nil then return 1, 0 end
  local gp = M.params.gp
  local level_ms = ctx.buffer_s * 1000
  if not M.params.basic then
    local i = ctx.segment_index - 1
    local t = math.min(i, segments - i)
    t = math.max(t / 2, 3)
    local effective = math.min(capacity, t * S)
    vp = (effective - S) / (utilities[levels] + gp)
  end
  local q, best
  for l = 1, levels do
    local score = (vp * (utilities[l] + gp) - level_ms) / bitrates[l]
    if best == nil or score > best then q, best = l, score end
  end
  local delay = 0
  if q > last then
    local latency = (ctx.latency_estimate_s or 0) * 1000
    local qt = throughput_rule.quality_from_throughput(ctx.throughput_estimate_kbps or 0, latency)
    if q > qt then
      if last > qt then
        q = last
      elseif M.params.oscillation then
        q = qt
        if q < levels then delay = math.max(0, level_ms - vp * (utilities[qt] + gp)) end
      else
        q = qt + 1
      end
    end
  end
  last = q
  return q, delay / 1000
end

-- Goes on with the recheck lib/bola_abandon.lua derives when no lower level wins now.
function M.check_abandon(progress)
  if M.params.basic then return nil, NEVER end
  local gp = M.params.gp
  local size = progress.size_bytes * 8
  local downloaded = progress.received_bytes * 8
  local remaining = size - downloaded
  if downloaded <= 0 or remaining <= 0 then return nil end
  local buffer = progress.buffer_s * 1000
  local current = progress.level
  local score = (vp * (gp + utilities[current]) - buffer) / remaining
  if score >= 0 then
    local best = abandon.lower_level(vp, gp, utilities, bitrates, current, size, remaining, buffer, score)
    if best then
      last = best
      return best
    end
  end
  return nil, abandon.recheck(progress, abandon.buffer_threshold(vp, gp, utilities, bitrates, current, size, remaining), 0)
end

return M
