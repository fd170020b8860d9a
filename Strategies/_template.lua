-- Template strategy for abrlab. Copy this file to a name of your own: the file name without
-- `.lua` becomes the strategy's id, and the leading underscore here only keeps the template
-- out of folder discovery. Reference: docs/lua-api.md; editor types: Strategies/abrlab.d.lua.
--
-- The rule: play the highest level whose bitrate is below `safety` × the throughput of the
-- last download; the first segment plays `start_level`.

---@type abrlab.Strategy
local M = {
  name = "Template: last throughput",
  description = "Highest level below safety × the last download's throughput",
  -- Defaults; each can be overridden as `id.key=value` and keeps its type (number here).
  params = {
    safety = 0.9,
    start_level = 1,
  },
  param_types = { start_level = "integer" },  -- overrides of these must be integers
}

-- Runs once per session before the first decision (optional).
---@param session abrlab.Session
function M.setup(session)
  assert(M.params.safety > 0, "params.safety must be positive")
end

-- Picks the level of segment ctx.segment_index; returns a 1-based level (required).
---@param ctx abrlab.Context
---@return integer
function M.choose(ctx)
  local history = ctx.throughputs_kbps
  local count = #history
  if count == 0 then
    return math.min(M.params.start_level, ctx.level_count)
  end
  local budget_kbps = history[count] * M.params.safety
  local level = 1
  for candidate = 2, ctx.level_count do
    if ctx.levels_kbps[candidate] < budget_kbps then
      level = candidate
    end
  end
  return level
end

-- Runs after every download (optional); the template needs nothing from it.
---@param report abrlab.Report
function M.on_download(report)
end

return M
