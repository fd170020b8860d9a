/* The sandbox: an allow-list of the base library plus read-only views of string, table and
   utf8, built once per engine; and the fresh environment each session (or load) runs in. */
#include "internal.h"

#include <stdio.h>

const char abrl_key_globals = 0;
const char abrl_key_env_meta = 0;
const char abrl_key_math_meta = 0;
const char abrl_key_load = 0;
const char abrl_key_sort = 0;

/* Base functions that touch nothing outside the engine. Excluded: dofile, loadfile, require
   (the host's own comes with each environment, host.c), collectgarbage and warn; load, print, rawset, setmetatable and xpcall get sandboxed versions,
   and pairs an ordered one. */
static const char *const base_allowed[] = {
    "assert", "error", "getmetatable", "ipairs", "next", "pcall", "rawequal",
    "rawget", "rawlen", "select", "tonumber", "tostring", "type", "_VERSION", NULL};

int abrl_readonly_newindex(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING) {
        return luaL_error(L, "cannot set field '%s': library tables are read-only in the sandbox", lua_tostring(L, 2));
    }
    return luaL_error(L, "library tables are read-only in the sandbox");
}

int abrl_is_readonly(lua_State *L, int index) {
    if (!lua_getmetatable(L, index)) return 0;
    lua_getfield(L, -1, "__newindex");
    int readonly = lua_tocfunction(L, -1) == abrl_readonly_newindex;
    lua_pop(L, 2);
    return readonly;
}

/* __pairs of a read-only view: iterates the library table behind it. */
static int readonly_pairs(lua_State *L) {
    if (!lua_getmetatable(L, 1)) return luaL_error(L, "not a library view");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_getfield(L, -2, "__index");
    lua_pushnil(L);
    return 3;
}

/* Pushes a metatable that shows `library` read-only through an empty table. */
static void push_readonly_meta(lua_State *L, int library, int next) {
    lua_createtable(L, 0, 4);
    lua_pushvalue(L, library);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, abrl_readonly_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, next);
    lua_pushcclosure(L, readonly_pairs, 1);
    lua_setfield(L, -2, "__pairs");
}

static void set_readonly_view(lua_State *L, int globals, const char *name, int library, int next) {
    lua_newtable(L);
    push_readonly_meta(L, library, next);
    lua_setmetatable(L, -2);
    lua_setfield(L, globals, name);
}

/* setmetatable that refuses __gc: a finalizer would run outside any call's budget. */
static int sandbox_setmetatable(lua_State *L) {
    int type = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table");
    if (type == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "__gc metamethods are not allowed in the sandbox");
        lua_pop(L, 1);
    }
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

/* rawset that cannot reach behind a read-only library view. */
static int sandbox_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    if (abrl_is_readonly(L, 1)) return luaL_error(L, "library tables are read-only in the sandbox");
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

/* Lua calls a message handler for an error raised by the count hook with hooks still off, so
   a looping handler would never be stopped; once a limit is hit, handlers are skipped. */
static int guarded_handler(lua_State *L) {
    if (abrl_engine_of(L)->exceeded) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int sandbox_xpcall(lua_State *L) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded_handler, 1);
    lua_replace(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* print writes to stderr in verbose mode, prefixed with the caller's place; else it is silent.
   The line is joined by lua_concat, not in a lauxlib buffer, so Lua collects garbage for it. */
static int sandbox_print(lua_State *L) {
    if (!abrl_engine_of(L)->limits.verbose) return 0;
    int count = lua_gettop(L);
    luaL_checkstack(L, 2 * count + 2, "too many arguments to print");
    luaL_where(L, 1);
    for (int i = 1; i <= count; i++) {
        if (i > 1) lua_pushliteral(L, "\t");
        luaL_tolstring(L, i, NULL);
    }
    lua_pushliteral(L, "\n");
    lua_concat(L, lua_gettop(L) - count);
    size_t length;
    const char *text = lua_tolstring(L, -1, &length);
    fwrite(text, 1, length, stderr);
    return 0;
}

/* load with text chunks only; without an explicit env the chunk shares the caller's session
   environment (upvalue 1), as the standard load shares the global one. */
static int sandbox_load(lua_State *L) {
    int given = lua_gettop(L);
    lua_settop(L, 4);
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    if (given < 4) {
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_replace(L, 4);
    }
    lua_rawgetp(L, LUA_REGISTRYINDEX, &abrl_key_load);
    lua_insert(L, 1);
    lua_call(L, 4, LUA_MULTRET);
    return lua_gettop(L);
}

int abrl_sandbox_install(lua_State *L) {
    abrl_buffers_install(L);
    luaL_requiref(L, LUA_GNAME, luaopen_base, 0);
    int base = lua_gettop(L);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 0);
    int string = lua_gettop(L);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 0);
    int table = lua_gettop(L);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 0);
    int math = lua_gettop(L);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 0);
    int utf8 = lua_gettop(L);
    lua_getfield(L, base, "next");
    int next = lua_gettop(L);

    lua_getfield(L, base, "load");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &abrl_key_load);
    abrl_patch_string(L, string);
    abrl_patch_table(L, table);
    abrl_patch_buffers(L, string, table, utf8);
    lua_getfield(L, table, "sort");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &abrl_key_sort);
    lua_pushnil(L);
    lua_setfield(L, math, "random");
    lua_pushnil(L);
    lua_setfield(L, math, "randomseed");

    /* Strings index the patched library directly; getmetatable("") yields false. */
    lua_pushliteral(L, "");
    if (lua_getmetatable(L, -1)) {
        lua_pushvalue(L, string);
        lua_setfield(L, -2, "__index");
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);

    lua_createtable(L, 0, 24);
    int globals = lua_gettop(L);
    for (const char *const *name = base_allowed; *name != NULL; name++) {
        lua_getfield(L, base, *name);
        lua_setfield(L, globals, *name);
    }
    lua_pushcfunction(L, abrl_ordered_pairs);
    lua_setfield(L, globals, "pairs");
    lua_pushcfunction(L, sandbox_setmetatable);
    lua_setfield(L, globals, "setmetatable");
    lua_pushcfunction(L, sandbox_rawset);
    lua_setfield(L, globals, "rawset");
    lua_pushcfunction(L, sandbox_print);
    lua_setfield(L, globals, "print");
    lua_getfield(L, base, "xpcall");
    lua_pushcclosure(L, sandbox_xpcall, 1);
    lua_setfield(L, globals, "xpcall");
    set_readonly_view(L, globals, LUA_STRLIBNAME, string, next);
    set_readonly_view(L, globals, LUA_TABLIBNAME, table, next);
    set_readonly_view(L, globals, LUA_UTF8LIBNAME, utf8, next);
    lua_pushvalue(L, globals);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &abrl_key_globals);

    lua_createtable(L, 0, 2);
    lua_pushvalue(L, globals);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_rawsetp(L, LUA_REGISTRYINDEX, &abrl_key_env_meta);

    push_readonly_meta(L, math, next);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &abrl_key_math_meta);
    abrl_host_install(L);

    /* Nothing loaded by abrlab runs in the real globals; leave them empty. */
    lua_newtable(L);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    return 0;
}

void abrl_push_env(lua_State *L, lua_Integer seed, const abrl_host *host) {
    lua_createtable(L, 0, 4);
    int env = lua_gettop(L);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &abrl_key_env_meta);
    lua_setmetatable(L, env);
    lua_pushvalue(L, env);
    lua_setfield(L, env, LUA_GNAME);
    lua_pushvalue(L, env);
    lua_pushcclosure(L, sandbox_load, 1);
    lua_setfield(L, env, "load");
    abrl_push_session_math(L, seed);
    lua_setfield(L, env, LUA_MATHLIBNAME);
    if (host != NULL) abrl_env_add_host(L, env, host);
}
