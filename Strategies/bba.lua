-- BBA: buffer-based rate adaptation, as Pensieve's baseline implements it.
-- Huang et al., "A Buffer-Based Approach to Rate Adaptation: Evidence from a Large Video
-- Streaming Service", SIGCOMM 2014, doi:10.1145/2619239.2626296.
-- Rule from Pensieve's sim/bb.py (Mao et al., SIGCOMM 2017, doi:10.1145/3098822.3098843):
-- below the reservoir the lowest level, at or above reservoir + cushion the highest, in between
-- a level proportional to the buffer. The first segment is fixed.

local M = {
  name = "BBA",
  description = "Buffer-based: lowest level below a 5 s reservoir, highest above 15 s, linear in between.",
  params = {
    reservoir_s = 5,  -- buffer below which the lowest level plays
    cushion_s = 10,   -- buffer range over which the level climbs to the top
    first_level = 2,  -- level of the first segment (1-based)
  },
  param_types = { first_level = "integer" },  -- overrides of these must be integers
}

function M.choose(ctx)
  local p = M.params
  if ctx.last_level == nil then
    return math.min(p.first_level, ctx.level_count)
  end
  local buffer = ctx.buffer_s
  if buffer < p.reservoir_s then return 1 end
  if buffer >= p.reservoir_s + p.cushion_s then return ctx.level_count end
  return math.floor((ctx.level_count - 1) * (buffer - p.reservoir_s) / p.cushion_s) + 1
end

return M
