/* math.random and math.randomseed per session: the same xoshiro256** generator as Lua 5.4,
   but with its state in the session, so sessions sharing an engine cannot disturb each
   other's sequences, and seeded from the session seed, so a seed gives one sequence. */
#include "internal.h"

typedef struct random_state {
    uint64_t s[4];
} random_state;

static uint64_t rotate_left(uint64_t x, int n) {
    return (x << n) | (x >> (64 - n));
}

static uint64_t next_random(random_state *state) {
    uint64_t *s = state->s;
    uint64_t result = rotate_left(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotate_left(s[3], 45);
    return result;
}

static void seed_random(random_state *state, uint64_t first, uint64_t second) {
    state->s[0] = first;
    state->s[1] = 0xff;
    state->s[2] = second;
    state->s[3] = 0;
    for (int i = 0; i < 16; i++) next_random(state);
}

/* A uniform value in [0, n], by rejection on the smallest covering bit mask. */
static uint64_t project(uint64_t value, uint64_t n, random_state *state) {
    if ((n & (n + 1)) == 0) return value & n;
    uint64_t mask = n;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    while ((value &= mask) > n) value = next_random(state);
    return value;
}

static int session_random(lua_State *L) {
    random_state *state = lua_touserdata(L, lua_upvalueindex(1));
    uint64_t value = next_random(state);
    lua_Integer low, high;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, (lua_Number)(value >> 11) * 0x1.0p-53);
        return 1;
    case 1:
        low = 1;
        high = luaL_checkinteger(L, 1);
        if (high == 0) {
            lua_pushinteger(L, (lua_Integer)value);
            return 1;
        }
        break;
    case 2:
        low = luaL_checkinteger(L, 1);
        high = luaL_checkinteger(L, 2);
        break;
    default:
        return luaL_error(L, "wrong number of arguments");
    }
    luaL_argcheck(L, low <= high, 1, "interval is empty");
    uint64_t offset = project(value, (uint64_t)high - (uint64_t)low, state);
    lua_pushinteger(L, (lua_Integer)(offset + (uint64_t)low));
    return 1;
}

/* randomseed needs an explicit seed: the standard one without arguments seeds from the clock. */
static int session_randomseed(lua_State *L) {
    random_state *state = lua_touserdata(L, lua_upvalueindex(1));
    lua_Integer first = luaL_checkinteger(L, 1);
    lua_Integer second = luaL_optinteger(L, 2, 0);
    seed_random(state, (uint64_t)first, (uint64_t)second);
    return 0;
}

void abrl_push_session_math(lua_State *L, lua_Integer seed) {
    lua_createtable(L, 0, 2);
    random_state *state = lua_newuserdatauv(L, sizeof *state, 0);
    seed_random(state, (uint64_t)seed, 0);
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, session_random, 1);
    lua_setfield(L, -3, "random");
    lua_pushcclosure(L, session_randomseed, 1);
    lua_setfield(L, -2, "randomseed");
    lua_rawgetp(L, LUA_REGISTRYINDEX, &abrl_key_math_meta);
    lua_setmetatable(L, -2);
}
