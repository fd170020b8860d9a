-- LoL+ (Low-on-Latency plus): learning-based bitrate selection (a self-organising map whose
-- feature weights are picked per decision by a QoE-driven weight selector) with hybrid
-- buffer/latency playback-speed control. Bentaleb, Akcay, Lim, Begen, Zimmermann, "Catching the
-- Moment with LoL+ in Twitch-Like Low-Latency Live Streaming Platforms", IEEE Trans. Multimedia
-- 2022, doi:10.1109/TMM.2021.3079288.
-- Follows dash.js: v4.7.1 src/streaming/rules/abr/lolp/LoLpRule.js (inputs, constants), and
-- LoLpQoEEvaluator.js (lib/lolp_qoe.lua), LoLpWeightSelector.js (v5.0.0, lib/lolp_weights.lua),
-- LearningAbrController.js (lib/lolp_som.lua) and CatchupController.js's LoL+ mode
-- (lib/lolp_rate.lua), each module naming the version it follows; the rate is returned as
-- choose's third value on the live profile and, with continuous_rate, by on_playback at every
-- playback update, as dash.js's CatchupController re-evaluates it on every playback-time update.

local qoe = require("lib.lolp_qoe")
local weights = require("lib.lolp_weights")
local som_module = require("lib.lolp_som")
local rate = require("lib.lolp_rate")
local history_module = require("lib.dashjs_throughput")

local M = {
  name = "LoL+ (dash.js)",
  description = "LoL+: SOM bitrate learning with dynamic weights, and LoL+ buffer/latency playback-rate control.",
  params = {
    safety = 0.9,                 -- dash.js bandwidthSafetyFactor on the throughput estimate
    initial_bitrate_kbps = 1000,  -- dash.js's default initial video bitrate, before any estimate
    dws_target_latency_s = 1.5,   -- weight selector's latency constraint (LoLpRule DWS_TARGET_LATENCY)
    dws_buffer_min_s = 0.3,       -- weight selector's and map's minimum buffer (DWS_BUFFER_MIN)
    rate_control = true,          -- return LoL+'s playback rate on live profiles
    rate_min = -0.5,              -- largest slow-down (dash.js liveCatchup.playbackRate.min default)
    rate_max = 0.5,               -- largest speed-up (liveCatchup.playbackRate.max default)
    playback_buffer_min_s = 0.5,  -- below this buffer the rate follows the buffer (playbackBufferMin)
    continuous_rate = false,      -- also set the rate at every playback update (on_playback), as
                                  -- dash.js does; false sets it at decisions only
    estimate = "dashjs",          -- "dashjs": dash.js's sliding window (lib/dashjs_throughput.lua);
                                  -- "profile": the profile's estimate, ctx.throughput_estimate_kbps
  },
}

-- Per session (each session runs this file afresh):
local som                             -- the map, built at the first decision with an estimate
local level                           -- the level chosen last
local history = history_module.new()  -- dash.js's throughput history

function M.setup(session)
  history_module.check_estimate_param(M.params.estimate)
  -- Hooks are read after setup: without continuous control there is no on_playback at all.
  if not (session.live and M.params.rate_control and M.params.continuous_rate) then M.on_playback = nil end
end

function M.on_download(report) history_module.record(history, report) end

local function initial_level(ctx)
  return history_module.level_for_bitrate(ctx.levels_kbps, ctx.segment_duration_s, M.params.initial_bitrate_kbps, nil)
end

-- LoL+'s rate given the player's state (ctx or playback: the same field names).
local function lolp_rate(state)
  local p = M.params
  local current = state.playback_rate or 1
  -- dash.js's LoL+ mode acts whenever the latency is off target or the buffer is short.
  if state.live_latency_s == state.target_latency_s and state.buffer_s >= p.playback_buffer_min_s then return current end
  local wanted = rate.target_rate(state.live_latency_s, state.target_latency_s, state.buffer_s, p.playback_buffer_min_s, p.rate_min, p.rate_max)
  return rate.applied_rate(current, wanted, p.rate_max)
end

-- LoL+'s rate for this decision, or nil when the profile is not live or control is off.
local function playback_rate(ctx)
  if not ctx.live or not M.params.rate_control then return nil end
  return lolp_rate(ctx)
end

-- Every chunk arrival, and every chunk duration while a chunk is on its way (continuous_rate).
function M.on_playback(playback) return lolp_rate(playback) end

function M.choose(ctx)
  local p = M.params
  local estimate = history_module.estimate(history, ctx, p.estimate)
  if estimate == nil or ctx.last_level == nil then
    level = level or initial_level(ctx)
    return level, 0, playback_rate(ctx)
  end
  if som == nil then
    local bitrates = {}
    for l = 1, ctx.level_count do bitrates[l] = ctx.levels_kbps[l] * 1000 end
    som = som_module.new(bitrates, math.random)
  end
  local d = ctx.segment_duration_s
  local selector = weights.new(p.dws_target_latency_s, p.dws_buffer_min_s, d, qoe,
    qoe.weights(d, ctx.levels_kbps[ctx.level_count], ctx.levels_kbps[1]))
  local throughput_bps = p.safety * estimate * 1000
  level = som_module.next_level(som, throughput_bps, ctx.live_latency_s or 0, ctx.buffer_s, ctx.playback_rate or 1,
    ctx.last_level, weights, selector)
  return level, 0, playback_rate(ctx)
end

return M
