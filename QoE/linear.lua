-- The built-in linear QoE model written as a Lua QoE script: Pensieve's reward
-- (Mao et al., SIGCOMM 2017, doi:10.1145/3098822.3098843), the same as `--qoe linear`.
--
-- score = bitrate (Mbps) - 4.3 * rebuffering (s) - 1 * |bitrate - previous bitrate| (Mbps)
--
-- Run it with `abrlab compare --qoe QoE/linear.lua`; it gives exactly the scores of
-- `--qoe linear`, digit for digit. docs/qoe.md lists every field of segment and session.

local REBUFFER_PENALTY = 4.3  -- per second of rebuffering; Pensieve's top bitrate in Mbps
local SMOOTHNESS_PENALTY = 1  -- per Mbps of change between consecutive segments

return {
  name = "linear (Lua)",
  description = "Bitrate in Mbps minus 4.3 per rebuffering second and the bitrate change in Mbps.",

  ---@param segment abrlab.QoESegment
  ---@param session abrlab.QoESession
  ---@return number
  qoe = function(segment, session)
    local utility = segment.bitrate_kbps / 1000
    local switch = 0
    if segment.previous_bitrate_kbps then
      switch = math.abs(utility - segment.previous_bitrate_kbps / 1000)
    end
    return utility - REBUFFER_PENALTY * segment.rebuffer_s - SMOOTHNESS_PENALTY * switch
  end,
}
