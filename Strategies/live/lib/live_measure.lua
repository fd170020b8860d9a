-- Measurements the live strategies share, read from ctx.

local M = {}

-- Throughput of the last download, kbps (0 before any).
function M.last_throughput_kbps(ctx)
  local n = #ctx.throughputs_kbps
  if n == 0 then return 0 end
  return ctx.throughputs_kbps[n]
end

return M
