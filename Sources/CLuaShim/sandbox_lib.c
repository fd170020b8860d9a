/* Library patches: pattern matching and string.dump are disabled, string.find searches plain
   text only, and table functions that loop in C over a range the script controls charge that
   range to the instruction budget first (the count hook cannot see C loops). Functions that
   build long strings are wrapped in buffers.c. */
#define _GNU_SOURCE
#include "internal.h"

#include <string.h>

static int disabled(lua_State *L) {
    return luaL_error(L, "%s", lua_tostring(L, lua_upvalueindex(1)));
}

static void disable(lua_State *L, int library, const char *name, const char *why) {
    lua_pushstring(L, why);
    lua_pushcclosure(L, disabled, 1);
    lua_setfield(L, library, name);
}

static lua_Integer relative_start(lua_Integer position, size_t length) {
    if (position > 0) return position;
    if (position == 0) return 1;
    if (position < -(lua_Integer)length) return 1;
    return (lua_Integer)length + position + 1;
}

static int has_specials(const char *pattern, size_t length) {
    static const char specials[] = "^$*+?.([%-";
    for (size_t i = 0; i < length; i++) {
        if (memchr(specials, pattern[i], sizeof specials - 1) != NULL) return 1;
    }
    return 0;
}

/* string.find without patterns: plain search when asked for or when the text has no magic
   characters, as the standard library does; a pattern raises. */
static int sandbox_find(lua_State *L) {
    size_t length, needle_length;
    const char *subject = luaL_checklstring(L, 1, &length);
    const char *needle = luaL_checklstring(L, 2, &needle_length);
    size_t start = (size_t)relative_start(luaL_optinteger(L, 3, 1), length) - 1;
    if (!lua_toboolean(L, 4) && has_specials(needle, needle_length)) {
        return luaL_error(L, "string.find: patterns are disabled in the sandbox; "
                             "pass true as 4th argument for a plain search");
    }
    if (start > length) {
        luaL_pushfail(L);
        return 1;
    }
    abrl_charge(L, (length - start) >> ABRL_ALLOC_SHIFT);
    const char *found = memmem(subject + start, length - start, needle, needle_length);
    if (found == NULL) {
        luaL_pushfail(L);
        return 1;
    }
    lua_pushinteger(L, (lua_Integer)(found - subject) + 1);
    lua_pushinteger(L, (lua_Integer)(found - subject + (ptrdiff_t)needle_length));
    return 2;
}

void abrl_patch_string(lua_State *L, int library) {
    disable(L, library, "dump", "string.dump is disabled in the sandbox");
    disable(L, library, "match", "string.match is disabled in the sandbox (patterns are unbounded)");
    disable(L, library, "gmatch", "string.gmatch is disabled in the sandbox (patterns are unbounded)");
    disable(L, library, "gsub", "string.gsub is disabled in the sandbox (patterns are unbounded)");
    lua_pushcfunction(L, sandbox_find);
    lua_setfield(L, library, "find");
}

uint64_t abrl_span(lua_Integer first, lua_Integer last) {
    return last >= first ? (uint64_t)last - (uint64_t)first + 1 : 1;
}

/* Charges `units`, then calls the original function (upvalue 1) with the same arguments. */
static int charge_and_call(lua_State *L, uint64_t units) {
    abrl_charge(L, units);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int charged_insert(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_gettop(L) != 3) return charge_and_call(L, 1);
    lua_Integer length = luaL_len(L, 1);
    return charge_and_call(L, abrl_span(luaL_checkinteger(L, 2), length));
}

static int charged_remove(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer length = luaL_len(L, 1);
    return charge_and_call(L, abrl_span(luaL_optinteger(L, 2, length), length));
}

static int charged_move(lua_State *L) {
    return charge_and_call(L, abrl_span(luaL_checkinteger(L, 2), luaL_checkinteger(L, 3)));
}

static int charged_unpack(lua_State *L) {
    lua_Integer first = luaL_optinteger(L, 2, 1);
    lua_Integer last = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
    return charge_and_call(L, abrl_span(first, last));
}

/* Sorting n elements charges n × log2(n). */
static int charged_sort(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer length = luaL_len(L, 1);
    uint64_t n = length > 0 ? (uint64_t)length : 1;
    uint64_t bits = 1;
    while (bits < 64 && (n >> bits) != 0) bits++;
    return charge_and_call(L, n > UINT64_MAX / bits ? UINT64_MAX : n * bits);
}

static void wrap(lua_State *L, int library, const char *name, lua_CFunction wrapper) {
    lua_getfield(L, library, name);
    lua_pushcclosure(L, wrapper, 1);
    lua_setfield(L, library, name);
}

void abrl_patch_table(lua_State *L, int library) {
    wrap(L, library, "insert", charged_insert);
    wrap(L, library, "remove", charged_remove);
    wrap(L, library, "move", charged_move);
    wrap(L, library, "unpack", charged_unpack);
    wrap(L, library, "sort", charged_sort);
}
