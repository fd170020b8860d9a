-- L2A-LL (Learn2Adapt-LowLatency): bitrate adaptation as online convex optimisation; a
-- probability vector over levels descends a Lagrangian whose multiplier Q tracks how far the
-- buffer is displaced, and the level nearest the expected bitrate is played.
-- Karagkioules, Mekuria, Griffioen, Wagenaar, "Online learning for low-latency adaptive
-- streaming", ACM MMSys 2020, doi:10.1145/3339825.3397042.
-- Follows dash.js v4.7.1, src/streaming/rules/abr/L2ARule.js: start-up picks the highest level
-- under the safe throughput (AbrController.getQualityForBitrate, latency as dead time) until a
-- segment has arrived and the buffer reaches B_target, then the learner (lib/l2a_learner.lua)
-- decides from the last segment's throughput. Throughput and latency averages are dash.js's
-- (lib/dashjs_throughput.lua). The playback rate is left to the player's catch-up.
-- B_target is 1.5 s, hard-coded in dash.js as here (b_target_s): with a target latency under
-- 1.5 s (the Twitch challenge's is 1 s) the buffer, which stays near the latency, never reaches
-- it, so L2A never leaves start-up and picks exactly as dash.js's throughput rule does
-- (live/ll-throughput) -- faithful to dash.js, but then its numbers measure that rule, not L2A.

local learner = require("lib.l2a_learner")
local history_module = require("lib.dashjs_throughput")

local M = {
  name = "L2A-LL (dash.js)",
  description = "Learn2Adapt-LowLatency: online-learning probability vector over levels (dash.js L2ARule).",
  params = {
    horizon = 4,                 -- optimisation horizon: V_L = horizon^0.99, step size from it
    react = 2,                   -- how strongly Q is raised after an over-estimate
    b_target_s = 1.5,            -- buffer at which start-up hands over to the learner
    safety = 0.9,                -- dash.js bandwidthSafetyFactor for the start-up choice
    initial_bitrate_kbps = 1000, -- dash.js's default initial video bitrate, before any estimate
    estimate = "dashjs",         -- "dashjs": dash.js's sliding window (lib/dashjs_throughput.lua);
                                 -- "profile": the profile's estimate, ctx.throughput_estimate_kbps
  },
}

-- Per session (each session runs this file afresh):
local state                           -- the learner's state once steady; nil during start-up
local last_level                      -- level chosen for the previous segment
local history = history_module.new()  -- dash.js's throughput history

function M.setup() history_module.check_estimate_param(M.params.estimate) end

function M.on_download(report) history_module.record(history, report) end

local function level_for_bitrate(ctx, kbps, latency_s)
  return history_module.level_for_bitrate(ctx.levels_kbps, ctx.segment_duration_s, kbps, latency_s)
end

function M.choose(ctx)
  local p = M.params
  local average, latency = history_module.estimate(history, ctx, p.estimate)
  if average == nil then
    last_level = last_level or level_for_bitrate(ctx, p.initial_bitrate_kbps, nil)
    return last_level
  end
  if state == nil then
    last_level = level_for_bitrate(ctx, p.safety * average, latency)
    if ctx.last_level ~= nil and ctx.buffer_s >= p.b_target_s then
      state = learner.new(table.move(ctx.levels_kbps, 1, ctx.level_count, 1, {}), p.horizon, p.react)
      learner.start_steady(state, last_level)
    end
    return last_level
  end
  -- The last segment's throughput (dash.js measures it over the time its bytes were arriving),
  -- rounded to whole kbps and at least 1, as dash.js has it.
  local last = history.throughputs_kbps[#history.throughputs_kbps]
  local throughput = math.max(1, math.floor(last + 0.5))
  last_level = learner.step(state, last_level, throughput, ctx.segment_duration_s, ctx.playback_rate or 1)
  return last_level
end

return M
