/* Long strings the libraries build in lauxlib buffers (luaL_Buffer). Past LUAL_BUFFERSIZE bytes a
   buffer lives in a "box" userdata whose memory lauxlib takes straight from the allocator, so it
   skips the emergency collection Lua runs before its own allocations fail; and freeing the box
   is a call (__close, else __gc) that itself may need memory. The sandbox wraps every library
   function that builds one, so that the function fails only when live data leaves no room and
   no box outlives a failure with its memory. */
#include "internal.h"

#include <stdint.h>
#include <string.h>

/* Stack beyond the arguments that a library function's frame and its box's __close call use. */
#define ROOM (2 * LUA_MINSTACK + 8)
/* Flags and conversion of a format item as long as this make lstrlib raise (MAX_FORMAT - 10). */
#define FORMAT_SPEC_MAX 22
/* Most bytes a format item reserves (lstrlib's MAX_ITEMF), and any non-string value's text. */
#define ITEM_MAX 420
#define TEXT_MAX 64
/* A bound on what a call's buffer holds, when none is known. */
#define UNBOUNDED SIZE_MAX

/* What a wrapped function's buffer may hold is known: from its string argument (upper, lower,
   reverse), at most 8 bytes per argument (string.char, utf8.char), or not (string.pack). */
enum { SAME_LENGTH, PER_ARGUMENT, UNKNOWN, REP, FORMAT, CONCAT };

/* Makes the box metatable while the engine opens. Made on first use, a refused allocation
   between registering it and storing __close would leave every later long buffer failing. */
void abrl_buffers_install(lua_State *L) {
    int top = lua_gettop(L);
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    luaL_prepbuffsize(&buffer, LUAL_BUFFERSIZE + 1);
    luaL_pushresult(&buffer);
    if (luaL_getmetatable(L, "_UBOX*") != LUA_TTABLE || lua_getfield(L, -1, "__close") == LUA_TNIL) {
        luaL_error(L, "lauxlib made no buffer metatable with __close");
    }
    lua_settop(L, top);
}

static int has_metatable(lua_State *L, int index) {
    int type = lua_type(L, index);
    if ((type != LUA_TTABLE && type != LUA_TUSERDATA) || !lua_getmetatable(L, index)) return 0;
    lua_pop(L, 1);
    return 1;
}

/* A bound on the text of the value at `index` (a string's length, else TEXT_MAX), or
   UNBOUNDED when converting it may call __tostring. */
static size_t text_bound(lua_State *L, int index) {
    if (lua_type(L, index) == LUA_TSTRING) return lua_rawlen(L, index);
    return has_metatable(L, index) ? UNBOUNDED : TEXT_MAX;
}

static size_t add_bound(size_t a, size_t b) {
    return a > UNBOUNDED - b ? UNBOUNDED : a + b;
}

/* string.rep is capped at limits.string_rep_bytes; an empty result returns at once, where the
   standard version would loop n times copying nothing. Returns 1 when it pushed the result. */
static int prepare_rep(lua_State *L, size_t *bound) {
    size_t length, separator_length;
    luaL_checklstring(L, 1, &length);
    lua_Integer count = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &separator_length);
    if (count <= 0 || (length == 0 && separator_length == 0)) {
        lua_pushliteral(L, "");
        return 1;
    }
    size_t cap = abrl_engine_of(L)->limits.string_rep_bytes;
    size_t unit = length + separator_length;
    if (unit < length || (uint64_t)count > ((uint64_t)cap + separator_length) / unit) {
        return luaL_error(L, "string.rep: result larger than the sandbox's cap of %I bytes", (lua_Integer)cap);
    }
    *bound = (size_t)count * unit;
    lua_settop(L, 3);
    return 0;
}

/* string.format calls __tostring for %s. Such arguments are converted here first, once, as
   format would convert them, so that running format again calls no metamethod again. The
   parse follows lstrlib's and stops where format would raise (the bound is then unknown). */
static size_t prepare_format(lua_State *L) {
    int top = lua_gettop(L);
    size_t length;
    const char *format = luaL_checklstring(L, 1, &length);
    const char *end = format + length;
    size_t bound = length;
    int arg = 1;
    while (format < end) {
        if (*format++ != '%') continue;
        if (*format == '%') {
            format++;
            continue;
        }
        size_t flags = strspn(format, "-+ #0123456789.");
        if (++arg > top || flags + 1 >= FORMAT_SPEC_MAX) return UNBOUNDED;
        format += flags;
        char conversion = *format++;
        if (conversion == 's' && has_metatable(L, arg)) {
            luaL_tolstring(L, arg, NULL);
            lua_replace(L, arg);
        }
        size_t text = conversion == 's' || conversion == 'q' ? text_bound(L, arg) : 0;
        if (conversion == 'q') text = text > UNBOUNDED / 4 ? UNBOUNDED : 4 * text + 2;
        bound = add_bound(add_bound(bound, ITEM_MAX), text);
    }
    return bound;
}

/* Replaces the list (argument 1, which has a metatable) with a plain table of its elements
   first…last, read in table.concat's order and stopping after the first one concat rejects,
   so that running concat again calls no metamethod again. */
static void copy_elements(lua_State *L, lua_Integer first, lua_Integer last) {
    lua_settop(L, 4);
    lua_pushinteger(L, last);
    lua_replace(L, 4);
    lua_newtable(L);
    for (lua_Integer i = first; i <= last; i++) {
        int type = lua_geti(L, 1, i);
        lua_rawseti(L, -2, i);
        if ((type != LUA_TSTRING && type != LUA_TNUMBER) || i == last) break;
    }
    lua_replace(L, 1);
}

/* A bound on the join of a short plain list (`count` elements from `first`), UNBOUNDED for a
   long one. */
static size_t join_bound(lua_State *L, lua_Integer first, uint64_t count) {
    if (count > TEXT_MAX) return UNBOUNDED;
    size_t separator = lua_isnoneornil(L, 2) ? 0 : text_bound(L, 2);
    size_t bound = 0;
    for (uint64_t i = 0; i < count; i++) {
        lua_rawgeti(L, 1, first + (lua_Integer)i);
        bound = add_bound(add_bound(bound, text_bound(L, -1)), separator);
        lua_pop(L, 1);
    }
    return bound;
}

/* table.concat charges the range it loops over (the units, per run). */
static size_t prepare_concat(lua_State *L, uint64_t *units) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer first = luaL_optinteger(L, 3, 1);
    lua_Integer last = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
    *units = abrl_span(first, last);
    if (!has_metatable(L, 1)) return last < first ? 0 : join_bound(L, first, *units);
    abrl_charge(L, *units);
    copy_elements(L, first, last);
    return UNBOUNDED;
}

/* Two C levels, so that the CallInfos (and C stack) the function and its box's __close call
   use exist before the box does: closing it then never needs memory. */
static int level_two(lua_State *L) {
    (void)L;
    return 0;
}

static int level_one(lua_State *L) {
    lua_pushcfunction(L, level_two);
    lua_call(L, 0, 0);
    return 0;
}

/* A call whose buffer stays within LUAL_BUFFERSIZE makes no box and runs directly. Otherwise
   the library function (upvalue 1) runs on copies of the arguments under lua_pcall. When that
   failed after the cap refused memory, a full collection frees garbage and any box the attempt
   left; either way a failed attempt is followed by a run in this frame, as if the script had
   called the function itself, so its errors keep their names and places. The failed attempt's
   allocations are not charged, as Lua charges nothing for an emergency collection, so the
   budget a call spends does not depend on the garbage around it. */
static int buffered(lua_State *L) {
    abrl_engine *engine = abrl_engine_of(L);
    lua_CFunction function = lua_tocfunction(L, lua_upvalueindex(1));
    uint64_t units = 0;
    size_t bound = UNBOUNDED;
    switch (lua_tointeger(L, lua_upvalueindex(2))) {
    case SAME_LENGTH: bound = lua_type(L, 1) == LUA_TSTRING ? lua_rawlen(L, 1) : TEXT_MAX; break;
    case PER_ARGUMENT: bound = 8 * (size_t)lua_gettop(L); break;
    case REP:
        if (prepare_rep(L, &bound)) return 1;
        break;
    case FORMAT: bound = prepare_format(L); break;
    case CONCAT: bound = prepare_concat(L, &units); break;
    default: break;
    }
    if (units > 0) abrl_charge(L, units);
    int args = lua_gettop(L);
    if (bound <= LUAL_BUFFERSIZE || !lua_checkstack(L, args + ROOM)) return function(L);
    lua_pushcfunction(L, level_one);
    lua_call(L, 0, 0);
    size_t allocated = engine->bytes_allocated;
    int refused_before = engine->memory_refused;
    engine->memory_refused = 0;
    lua_pushcfunction(L, function);
    for (int i = 1; i <= args; i++) lua_pushvalue(L, i);
    int status = lua_pcall(L, args, LUA_MULTRET, 0);
    int refused = engine->memory_refused;
    engine->memory_refused |= refused_before;
    if (status == LUA_OK) return lua_gettop(L) - args;
    lua_settop(L, args);
    engine->bytes_allocated = allocated;
    if (refused) lua_gc(L, LUA_GCCOLLECT);
    return function(L);
}

/* The wrapped function must be a C function without upvalues: buffered also calls it as its own. */
static void wrap(lua_State *L, int library, const char *name, int kind) {
    lua_getfield(L, library, name);
    lua_pushinteger(L, kind);
    lua_pushcclosure(L, buffered, 2);
    lua_setfield(L, library, name);
}

void abrl_patch_buffers(lua_State *L, int string_table, int table_table, int utf8_table) {
    wrap(L, string_table, "upper", SAME_LENGTH);
    wrap(L, string_table, "lower", SAME_LENGTH);
    wrap(L, string_table, "reverse", SAME_LENGTH);
    wrap(L, string_table, "char", PER_ARGUMENT);
    wrap(L, string_table, "pack", UNKNOWN);
    wrap(L, string_table, "format", FORMAT);
    wrap(L, string_table, "rep", REP);
    wrap(L, table_table, "concat", CONCAT);
    wrap(L, utf8_table, "char", PER_ARGUMENT);
}
