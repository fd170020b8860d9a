-- numpy's legacy random generator (numpy.random.seed / RandomState) in plain Lua: MT19937 with
-- numpy's integer seeding and its legacy bounded integers. Matsumoto & Nishimura, "Mersenne
-- Twister", ACM TOMACS 8(1), 1998, doi:10.1145/272991.272995. Learned agents trained and tested
-- in numpy sample their actions from this stream; pensieve.lua uses it to play like Pensieve's
-- harness. abrlab's native NumpyLegacyRandom produces the same numbers.
--
--   local numpy_random = require("lib.numpy_random")
--   local rng = numpy_random.new(42)
--   rng:randint(1, 1000)   --> 103, like numpy.random.RandomState(42).randint(1, 1000)

local N, M = 624, 397

---@class NumpyRandom
---@field private mt integer[]
---@field private index integer
local Random = {}
Random.__index = Random

local numpy_random = {}

--- A generator seeded like numpy.random.seed(seed), seed an integer from 0 to 2^32 - 1.
---@param seed integer
---@return NumpyRandom
function numpy_random.new(seed)
  if math.type(seed) ~= "integer" or seed < 0 or seed > 0xffffffff then
    error("numpy_random.new: the seed must be an integer from 0 to 4294967295, not " .. tostring(seed), 2)
  end
  local mt = { seed }
  for i = 2, N do
    local previous = mt[i - 1]
    mt[i] = (1812433253 * (previous ~ (previous >> 30)) + (i - 1)) & 0xffffffff
  end
  return setmetatable({ mt = mt, index = N + 1 }, Random)
end

local function regenerate(mt)
  for k = 1, N do
    local y = (mt[k] & 0x80000000) | (mt[k % N + 1] & 0x7fffffff)
    local value = mt[(k + M - 1) % N + 1] ~ (y >> 1)
    if y & 1 == 1 then value = value ~ 0x9908b0df end
    mt[k] = value
  end
end

--- The next 32-bit output, 0 to 2^32 - 1.
---@return integer
function Random:next_uint32()
  if self.index > N then
    regenerate(self.mt)
    self.index = 1
  end
  local y = self.mt[self.index]
  self.index = self.index + 1
  y = y ~ (y >> 11)
  y = y ~ ((y << 7) & 0x9d2c5680)
  y = y ~ ((y << 15) & 0xefc60000)
  return y ~ (y >> 18)
end

--- numpy's legacy randint(low, high): an integer in [low, high), by masked rejection on one
--- 32-bit output per try (two for ranges wider than 32 bits); no draw when only low is possible.
---@param low integer
---@param high integer
---@return integer
function Random:randint(low, high)
  if math.type(low) ~= "integer" or math.type(high) ~= "integer" or low >= high then
    error("randint: needs integers low < high", 2)
  end
  local range = high - low - 1
  if range == 0 then return low end
  local mask = range
  for _, shift in ipairs({ 1, 2, 4, 8, 16, 32 }) do mask = mask | (mask >> shift) end
  local value
  if range <= 0xffffffff then
    if range == 0xffffffff then return low + self:next_uint32() end
    repeat value = self:next_uint32() & mask until value <= range
  else
    repeat value = ((self:next_uint32() << 32) | self:next_uint32()) & mask until math.ult(value, range + 1)
  end
  return low + value
end

return numpy_random
