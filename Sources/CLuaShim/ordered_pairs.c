/* pairs in a fixed order. Lua seeds its string hash from the clock and addresses, so the order
   `next` visits string keys in differs from one process to the next; a strategy that iterates
   with pairs would then give different results run to run. The sandbox's pairs visits a snapshot
   of the keys sorted as: numbers ascending, then strings by bytes, then false, true, then other
   keys (tables, functions) in no fixed order. Keys cleared during the loop are skipped;
   a __pairs metamethod is honoured as in standard Lua. */
#include "internal.h"

#include <string.h>

static int rank(int type) {
    switch (type) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return 3;
    }
}

/* Whether the key at stack index a sorts before the one at b. */
static int key_less(lua_State *L, int a, int b) {
    int ra = rank(lua_type(L, a)), rb = rank(lua_type(L, b));
    if (ra != rb) return ra < rb;
    switch (ra) {
    case 0: return lua_compare(L, a, b, LUA_OPLT);
    case 1: {
        size_t la, lb;
        const char *sa = lua_tolstring(L, a, &la), *sb = lua_tolstring(L, b, &lb);
        int order = memcmp(sa, sb, la < lb ? la : lb);
        return order != 0 ? order < 0 : la < lb;
    }
    case 2: return !lua_toboolean(L, a) && lua_toboolean(L, b);
    default: return 0;
    }
}

static int key_less_call(lua_State *L) {
    lua_pushboolean(L, key_less(L, 1, 2));
    return 1;
}

/* Every key of the table at `source`, into a new array sorted by key_less with the sandbox's
   table.sort (kept in the registry), which charges the sort to the budget. */
static void push_sorted_keys(lua_State *L, int source) {
    lua_newtable(L);
    int keys = lua_gettop(L);
    lua_Integer count = 0;
    lua_pushnil(L);
    while (lua_next(L, source) != 0) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++count);
    }
    abrl_charge(L, (uint64_t)count + 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &abrl_key_sort);
    lua_pushvalue(L, keys);
    lua_pushcfunction(L, key_less_call);
    lua_call(L, 2, 0);
}

/* Iterator: upvalues are the key array and the position reached. */
static int ordered_next(lua_State *L) {
    lua_Integer position = lua_tointeger(L, lua_upvalueindex(2));
    for (;;) {
        position++;
        if (lua_rawgeti(L, lua_upvalueindex(1), position) == LUA_TNIL) return 0;
        lua_pushvalue(L, -1);
        if (lua_rawget(L, 1) != LUA_TNIL) {
            lua_pushinteger(L, position);
            lua_replace(L, lua_upvalueindex(2));
            return 2;
        }
        lua_pop(L, 2);
    }
}

int abrl_ordered_pairs(lua_State *L) {
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    push_sorted_keys(L, 1);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, ordered_next, 2);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}
