-- Pensieve's pretrained agent with its state built in Lua: the example to copy when wrapping a
-- learned policy (in a safety rule, say). Mao, Netravali, Alizadeh, "Neural Adaptive Video
-- Streaming with Pensieve", SIGCOMM 2017, doi:10.1145/3098822.3098843; state, action and
-- sampling as Pensieve's test harness (test/rl_no_training.py) plays them. It chooses exactly
-- what the native pensieve-native does. The network runs natively (abrlab.model); the model in
-- models/ is Pensieve's published actor (see models/README.md).

local numpy_random = require("lib.numpy_random")

local net = abrlab.model("models/pensieve.safetensors")

---@type abrlab.Strategy
local M = {
  name = "Pensieve",
  description = "Pensieve's pretrained actor (SIGCOMM 2017) with its state built in Lua: sampled or argmax.",
  params = {
    action = "sampled", -- "sampled" (a numpy draw per decision, as the harness) or "argmax"
    seed = 42,          -- numpy legacy seed, set at the start of every session
  },
}

local BUFFER_NORM_S = 10      -- Pensieve's BUFFER_NORM_FACTOR
local SEGMENTS_LEFT_CAP = 48  -- Pensieve's CHUNK_TIL_VIDEO_END_CAP

local state, random, top_kbps
local probabilities = {} -- filled by net:forward on every decision

-- Asked once before any session: the network picks one of net.outputs levels and reads the
-- next sizes of every level, so another ladder length cannot be played at all.
function M.check(video)
  if video.level_count ~= net.outputs or video.level_count > net.columns then
    return string.format("the model has %d actions and %d columns; the video has %d levels", net.outputs, net.columns, video.level_count)
  end
end

function M.setup(session)
  if M.params.action ~= "sampled" and M.params.action ~= "argmax" then
    error("params.action must be 'sampled' or 'argmax', not '" .. M.params.action .. "'")
  end
  if session.level_count ~= net.outputs or session.level_count > net.columns then
    error(string.format("the model has %d actions and %d columns; the video has %d levels", net.outputs, net.columns, session.level_count))
  end
  state = {}
  for row = 1, net.rows do
    state[row] = {}
    for column = 1, net.columns do state[row][column] = 0 end
  end
  random = numpy_random.new(M.params.seed)
  top_kbps = 0
  for _, kbps in ipairs(session.levels_kbps) do top_kbps = math.max(top_kbps, kbps) end
end

-- The harness's update after a download: every row rotates left circularly, then the newest
-- values go in the last column (row 5's first columns get the next segment's sizes).
local function record_last_download(ctx)
  local n = #ctx.sizes_bytes
  local columns = net.columns
  for _, row in ipairs(state) do
    local first = row[1]
    for column = 1, columns - 1 do row[column] = row[column + 1] end
    row[columns] = first
  end
  local delay_ms = ctx.download_times_s[n] * 1000
  state[1][columns] = ctx.levels_kbps[ctx.last_level] / top_kbps
  state[2][columns] = ctx.buffer_s / BUFFER_NORM_S
  state[3][columns] = ctx.sizes_bytes[n] / delay_ms / 1000
  state[4][columns] = delay_ms / 1000 / BUFFER_NORM_S
  for level = 1, ctx.level_count do
    state[5][level] = ctx:size_bytes(ctx.segment_index, level) / 1000 / 1000
  end
  state[6][columns] = math.min(ctx.segment_count - n, SEGMENTS_LEFT_CAP) / SEGMENTS_LEFT_CAP
end

local function pick(probabilities)
  if M.params.action == "argmax" then
    local best = 1
    for level = 2, #probabilities do
      if probabilities[level] > probabilities[best] then best = level end
    end
    return best
  end
  local threshold = random:randint(1, 1000) / 1000
  local sum = 0
  for level = 1, #probabilities do
    sum = sum + probabilities[level]
    if sum > threshold then return level end
  end
  return 1
end

function M.choose(ctx)
  if ctx.last_level == nil then return 2 end -- the harness's first segment, without the network
  record_last_download(ctx)
  return pick(net:forward(state, probabilities))
end

return M
