-- A perceptual QoE model on per-segment VMAF: the linear model's form with VMAF (0-100) as the
-- utility instead of the bitrate, as in quality-aware ABR work such as Comyco (Huang et al.,
-- ACM MM 2019, doi:10.1145/3343031.3351014).
--
-- score = VMAF - 100 * rebuffering (s) - 1 * |VMAF - previous VMAF|
--
-- The weights follow Pensieve's rule for the linear model: a second of rebuffering costs the
-- best utility a segment can have (VMAF 100), and a switch costs the utility it changes.
-- The video must carry segment_vmaf (see docs/qoe.md); otherwise every session fails with a
-- message saying so.

local REBUFFER_PENALTY = 100 -- per second of rebuffering
local SMOOTHNESS_PENALTY = 1 -- per VMAF point of change between consecutive segments

return {
  name = "VMAF (Lua)",
  description = "VMAF minus 100 per rebuffering second and the VMAF change between segments.",

  ---@param segment abrlab.QoESegment
  ---@param session abrlab.QoESession
  ---@return number
  qoe = function(segment, session)
    local vmaf = segment.vmaf
    if vmaf == nil then
      error("the video carries no VMAF scores; give a manifest with segment_vmaf")
    end
    local switch = 0
    if segment.previous_vmaf then switch = math.abs(vmaf - segment.previous_vmaf) end
    return vmaf - REBUFFER_PENALTY * segment.rebuffer_s - SMOOTHNESS_PENALTY * switch
  end,
}
