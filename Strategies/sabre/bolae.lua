-- Sabre's BOLA-E, the BOLA of dash.js: BOLA with a placeholder buffer that lets it start at the
-- throughput level, delays before requests instead of oscillating, an insufficient-buffer rule,
-- and abandonment. Spiteri, Nguyen and Sitaraman, "From Theory to Practice: Improving Bitrate
-- Adaptation in the DASH Reference Player", ACM MMSys 2018, doi:10.1145/3204949.3204953.
-- Reproduces Sabre's `-a bolae` under `--profile sabre`; times are in milliseconds as Sabre keeps them.

local throughput_rule = require("throughput")
local abandon = require("lib.bola_abandon")

local M = {
  name = "BOLA-E (Sabre)",
  description = "Sabre's BOLA-E: BOLA with a placeholder buffer, request delays, IBR and abandonment.",
  params = {
    gp = 5,              -- γp when the insufficient-buffer rule is off
    ibr = true,          -- insufficient-buffer rule on; it also sets γp and V from the buffer target
    oscillation = false, -- BOLA-O: no +1 on capped up-switches (Sabre's -ao)
  },
}

local MINIMUM_BUFFER_MS = 10000
local BUFFER_PER_LEVEL_MS = 2000

local S, bitrates, levels
local utilities = {}
local gp, vp
local startup = true
local placeholder = 0
local last = 1
local ibr_safety = 0.9

function M.setup(session)
  throughput_rule.setup(session)
  S = session.segment_duration_s * 1000
  bitrates = session.levels_kbps
  levels = #bitrates
  local capacity = session.max_buffer_s * 1000
  -- Sabre adds one offset, 1 − ln(b₁), computed first: summed in another order the last bits of
  -- u differ, and a placeholder set to min_buffer(q) after an abandonment sits exactly where
  -- levels q − 1 and q tie, so those bits pick the level.
  local offset = 1 - math.log(bitrates[1])
  for q = 1, levels do utilities[q] = math.log(bitrates[q]) + offset end
  if M.params.ibr then
    local target = math.max(MINIMUM_BUFFER_MS + BUFFER_PER_LEVEL_MS * levels, capacity)
    gp = (utilities[levels] - 1) / (target / MINIMUM_BUFFER_MS - 1)
    vp = MINIMUM_BUFFER_MS / gp
  else
    gp = M.params.gp - 1
    vp = (capacity - S) / (utilities[levels] + gp)
  end
end

local function max_buffer(q) return vp * (utilities[q] + gp) end

local function min_buffer(q)
  local highest = 0
  for j = 1, q - 1 do
    if utilities[j] < utilities[q] then
      local b = vp * (gp + (bitrates[q] * utilities[j] - bitrates[j] * utilities[q]) / (bitrates[q] - bitrates[j]))
      highest = math.max(highest, b)
    end
  end
  return highest
end

local function quality_from_buffer(level_ms)
  local q, best
  for l = 1, levels do
    local score = (vp * (utilities[l] + gp) - level_ms) / bitrates[l]
    if best == nil or score > best then q, best = l, score end
  end
  return q
end

function M.choose(ctx)
  -- Sabre fetches the first segment at the lowest level without asking the rule.
  if ctx.throughput_estimate_kbps == nil then return 1, 0 end
  local level_ms = ctx.buffer_s * 1000
  local throughput = ctx.throughput_estimate_kbps or 0
  local latency = (ctx.latency_estimate_s or 0) * 1000
  if startup then
    startup = false
    ibr_safety = 0.9
    local q = throughput_rule.quality_from_throughput(throughput, latency)
    placeholder = math.max(0, min_buffer(q) - level_ms)
    return q, 0
  end
  local q = quality_from_buffer(level_ms + placeholder)
  local qt = throughput_rule.quality_from_throughput(throughput, latency)
  if q > last and q > qt then
    q = math.max(last, qt)
    if not M.params.oscillation then q = q + 1 end
  end
  local d = level_ms + placeholder - max_buffer(q)
  if d > 0 then
    if d <= placeholder then
      placeholder = placeholder - d
      d = 0
    else
      d = d - placeholder
      placeholder = 0
    end
  else
    d = 0
  end
  if q == levels then d = 0 end
  if M.params.ibr then
    local safe = ibr_safety * (level_ms - latency) * throughput
    ibr_safety = math.max(0.5, 0.9 * ibr_safety)
    for j = 1, q - 1 do
      if bitrates[j + 1] * S > safe then
        q = j
        d = 0
        placeholder = math.min(placeholder, math.max(0, min_buffer(j) - level_ms))
        break
      end
    end
  end
  return q, d / 1000
end

function M.on_wait(wait)
  placeholder = placeholder + wait.wait_s * 1000
end

function M.on_download(report)
  last = report.level
  local level_ms = report.buffer_s * 1000
  if not report.abandoned then
    if report.replacement then
      placeholder = placeholder + S
    else
      local was = level_ms + report.download_time_s * 1000
      placeholder = math.min(placeholder, math.max(0, max_buffer(report.level) - was))
      if level_ms > 0 then placeholder = math.max(placeholder, min_buffer(report.level) - was) end
    end
  elseif not report.replacement then
    local to = report.abandoned_to_level
    local want = (to ~= nil and to > 1) and min_buffer(to) or MINIMUM_BUFFER_MS
    placeholder = math.min(placeholder, math.max(0, want - level_ms))
  end
end

function M.check_abandon(progress)
  local size = progress.size_bytes * 8
  local downloaded = progress.received_bytes * 8
  local remaining = size - downloaded
  if downloaded <= 0 or remaining <= 0 then return nil end
  local ttfb = progress.ttfb_s * 1000
  local buffer = math.max(0, progress.buffer_s * 1000 + placeholder - ttfb)
  local rate = downloaded / (progress.elapsed_s * 1000 - ttfb)
  local left = remaining - ttfb * rate
  local current = progress.level
  if left > 0 then
    local score = (vp * (gp + utilities[current]) - buffer) / left
    local best = abandon.lower_level(vp, gp, utilities, bitrates, current, size, left, buffer, score)
    if best then return best end
  end
  -- What is left net of the latency's worth of bytes never exceeds `remaining`, so the bound
  -- on `remaining` holds for it too.
  local threshold = abandon.buffer_threshold(vp, gp, utilities, bitrates, current, size, remaining)
  return nil, abandon.recheck(progress, threshold, placeholder - ttfb)
end

return M
