/* The engine: allocator with a memory cap, the instruction budget's count hook, the
   protected-call wrapper every entry point goes through, and error messages. */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

abrl_limits abrl_default_limits(void) {
    abrl_limits limits;
    limits.instructions_per_call = 10000000;
    limits.seconds_per_call = 2.0;
    limits.memory_bytes = (size_t)32 << 20;
    limits.string_rep_bytes = (size_t)1 << 20;
    limits.verbose = 0;
    return limits;
}

abrl_engine *abrl_engine_of(lua_State *L) {
    return *(abrl_engine **)lua_getextraspace(L);
}

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int over_budget(const abrl_engine *engine);
static int call_within(abrl_engine *engine, lua_CFunction body, void *data, long long limit);
static void count_hook(lua_State *L, lua_Debug *ar);

/* Caps the engine's memory and counts bytes allocated during a call. Shrinking never fails,
   as Lua requires; a refused growth makes Lua collect garbage and retry before it raises.
   Compiled scripts the engine keeps for reuse sit on top of the cap, so what a session may
   allocate does not depend on which scripts its thread compiled before. */
static void *engine_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    abrl_engine *engine = ud;
    size_t old = ptr != NULL ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        engine->memory_used -= old;
        return NULL;
    }
    if (nsize > old) {
        size_t growth = nsize - old;
        if (engine->memory_used + growth > engine->limits.memory_bytes + engine->cache_bytes) {
            engine->memory_refused = 1;
            return NULL;
        }
        void *block = realloc(ptr, nsize);
        if (block == NULL) return NULL;
        engine->memory_used += growth;
        engine->bytes_allocated += growth;
        /* Allocation spends the budget too, and C library calls allocate without VM
           instructions: once spent, the hook runs at the next instruction rather than up to
           1000 later, after as many more allocations. lua_sethook only sets fields, so the
           allocator may call it. */
        if (engine->L != NULL && !engine->exceeded && lua_gethookcount(engine->L) != 1 && over_budget(engine)) {
            lua_sethook(engine->L, count_hook, LUA_MASKCOUNT, 1);
        }
        return block;
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) return ptr;
    engine->memory_used -= old - nsize;
    return block;
}

static int panic(lua_State *L) {
    const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "non-string error";
    fprintf(stderr, "abrlab: unprotected Lua error: %s\n", message);
    abort();
}

/* Records where the limit was first hit, then makes every later instruction raise, so a
   script that catches the error with pcall cannot keep running. */
static void mark_exceeded(lua_State *L, abrl_engine *engine, int code, lua_Debug *ar) {
    engine->exceeded = code;
    engine->where[0] = '\0';
    if (ar != NULL && lua_getinfo(L, "Sl", ar) && ar->currentline > 0) {
        snprintf(engine->where, sizeof engine->where, "%s:%d", ar->short_src, ar->currentline);
    }
}

static int limit_error(lua_State *L, abrl_engine *engine) {
    return luaL_error(L, engine->exceeded == ABRL_ERR_TIME ? "time limit exceeded" : "instruction budget exceeded");
}

static int over_budget(const abrl_engine *engine) {
    uint64_t spent = (uint64_t)engine->steps_used + (uint64_t)(engine->bytes_allocated >> ABRL_ALLOC_SHIFT);
    return spent > (uint64_t)engine->call_limit;
}

static void count_hook(lua_State *L, lua_Debug *ar) {
    abrl_engine *engine = abrl_engine_of(L);
    if (!engine->exceeded) {
        if (lua_gethookcount(L) == 1) {
            /* Armed by the allocator; the budget may have been given back since (a buffer's
               failed attempt is not charged), and then counting goes on every ABRL_HOOK_STEP. */
            if (!over_budget(engine)) {
                lua_sethook(L, count_hook, LUA_MASKCOUNT, ABRL_HOOK_STEP);
                return;
            }
        } else {
            engine->steps_used += ABRL_HOOK_STEP;
        }
        if (over_budget(engine)) {
            mark_exceeded(L, engine, ABRL_ERR_BUDGET, ar);
        } else if (engine->limits.seconds_per_call <= 0) {
            return;
        } else if (engine->deadline == 0) {
            /* The clock starts at the call's first hook, so a short call never reads it. */
            engine->deadline = monotonic_seconds() + engine->limits.seconds_per_call;
            return;
        } else if (monotonic_seconds() > engine->deadline) {
            mark_exceeded(L, engine, ABRL_ERR_TIME, ar);
        } else {
            return;
        }
        lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    }
    limit_error(L, engine);
}

void abrl_charge(lua_State *L, uint64_t units) {
    abrl_engine *engine = abrl_engine_of(L);
    if (!engine->exceeded) {
        uint64_t total = (uint64_t)engine->steps_used + units;
        if (total < units || total > (uint64_t)LLONG_MAX) total = (uint64_t)LLONG_MAX;
        engine->steps_used = (long long)total;
        if (!over_budget(engine)) return;
        lua_Debug ar;
        mark_exceeded(L, engine, ABRL_ERR_BUDGET, lua_getstack(L, 1, &ar) ? &ar : NULL);
        lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
    }
    limit_error(L, engine);
}

uint64_t abrl_budget_left(lua_State *L) {
    const abrl_engine *engine = abrl_engine_of(L);
    if (engine->exceeded) return 0;
    uint64_t spent = (uint64_t)engine->steps_used + (uint64_t)(engine->bytes_allocated >> ABRL_ALLOC_SHIFT);
    uint64_t limit = (uint64_t)engine->call_limit;
    return spent >= limit ? 0 : limit - spent;
}

void abrl_set_message(abrl_engine *engine, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(engine->message, sizeof engine->message, format, args);
    va_end(args);
}

int abrl_script_error(lua_State *L, int code, const char *format, ...) {
    abrl_engine *engine = abrl_engine_of(L);
    va_list args;
    va_start(args, format);
    vsnprintf(engine->message, sizeof engine->message, format, args);
    va_end(args);
    engine->pending_code = code;
    return luaL_error(L, "%s", engine->message);
}

void abrl_format_number(double value, char *buffer, size_t size) {
    /* glibc writes a NaN with its sign bit set (0/0 on x86) as "-nan". */
    if (value != value) {
        snprintf(buffer, size, "NaN");
        return;
    }
    /* The shortest form that reads back as the same double: %.14g wrote 2.0000000000000004 as 2,
       which made "returned 2; levels are 1…2" look like a false alarm. */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buffer, size, "%.*g", digits, value);
        if (strtod(buffer, NULL) == value) return;
    }
}

void abrl_render_value(lua_State *L, int index, char *buffer, size_t size) {
    switch (lua_type(L, index)) {
    case LUA_TNUMBER:
        if (lua_isinteger(L, index)) {
            snprintf(buffer, size, "%lld", (long long)lua_tointeger(L, index));
        } else {
            abrl_format_number((double)lua_tonumber(L, index), buffer, size);
        }
        break;
    case LUA_TNIL: snprintf(buffer, size, "nil"); break;
    case LUA_TBOOLEAN: snprintf(buffer, size, "%s", lua_toboolean(L, index) ? "true" : "false"); break;
    default: snprintf(buffer, size, "a %s value", luaL_typename(L, index)); break;
    }
}

/* Appends a traceback to string errors (verbose mode only). */
static int traceback_handler(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING) luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

/* Copies the error object into the engine's message without calling metamethods. */
static void capture_error(abrl_engine *engine, int index) {
    lua_State *L = engine->L;
    if (lua_type(L, index) == LUA_TSTRING) {
        abrl_set_message(engine, "%s", lua_tostring(L, index));
    } else {
        char rendered[64];
        abrl_render_value(L, index, rendered, sizeof rendered);
        abrl_set_message(engine, "error object is %s%s", lua_type(L, index) == LUA_TNUMBER ? "the number " : "", rendered);
    }
}

/* A failed call is a memory error when the cap refused memory during it and it failed on Lua's
   memory error, in the verbose message handler, or on lauxlib's "not enough memory" (a buffer
   that could not grow; also rethrown as is, or with a traceback). A refusal the script caught,
   or that a collection recovered from, leaves a later error its own. */
static int failed_on_memory(lua_State *L, int status) {
    static const char message[] = "not enough memory";
    if (status == LUA_ERRMEM || status == LUA_ERRERR) return 1;
    const char *text = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    return strncmp(text, message, sizeof message - 1) == 0 && (text[sizeof message - 1] == '\0' || text[sizeof message - 1] == '\n');
}

int abrl_call(abrl_engine *engine, lua_CFunction body, void *data) {
    return call_within(engine, body, data, engine->limits.instructions_per_call);
}

int abrl_session_call(abrl_session *session, lua_CFunction body, void *data) {
    abrl_engine *engine = session->engine;
    long long left = session->instructions_left;
    int bound_by_session = left < engine->limits.instructions_per_call;
    int code = call_within(engine, body, data, bound_by_session ? left : engine->limits.instructions_per_call);
    /* Counted as the call's budget counts: hook steps and allocation. */
    uint64_t spent = (uint64_t)engine->steps_used + (uint64_t)(engine->bytes_allocated >> ABRL_ALLOC_SHIFT);
    session->instructions_left = spent >= (uint64_t)left ? 0 : left - (long long)spent;
    return code == ABRL_ERR_BUDGET && bound_by_session ? ABRL_ERR_SESSION_BUDGET : code;
}

static int call_within(abrl_engine *engine, lua_CFunction body, void *data, long long limit) {
    lua_State *L = engine->L;
    int top = lua_gettop(L);
    engine->call_limit = limit;
    engine->steps_used = 0;
    engine->bytes_allocated = 0;
    engine->exceeded = 0;
    engine->memory_refused = 0;
    engine->pending_code = ABRL_OK;
    engine->message[0] = '\0';
    engine->deadline = 0;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, ABRL_HOOK_STEP);
    int handler = 0;
    if (engine->limits.verbose) {
        lua_pushcfunction(L, traceback_handler);
        handler = top + 1;
    }
    lua_pushcfunction(L, body);
    lua_pushlightuserdata(L, data);
    int status = lua_pcall(L, 1, 0, handler);
    int code = ABRL_OK;
    if (engine->exceeded) {
        code = engine->exceeded;
        abrl_set_message(engine, "%s", engine->where);
    } else if (status != LUA_OK && engine->memory_refused && failed_on_memory(L, status)) {
        code = ABRL_ERR_MEMORY;
        engine->message[0] = '\0';
    } else if (status != LUA_OK) {
        code = engine->pending_code != ABRL_OK ? engine->pending_code : ABRL_ERR_RUNTIME;
        if (engine->pending_code != ABRL_ERR_SCRIPT && engine->pending_code != ABRL_ERR_RESULT) capture_error(engine, -1);
    } else {
        code = engine->pending_code;
    }
    lua_settop(L, top);
    return code;
}

abrl_engine *abrl_engine_open(const abrl_limits *limits) {
    abrl_engine *engine = calloc(1, sizeof *engine);
    if (engine == NULL) return NULL;
    engine->limits = limits != NULL ? *limits : abrl_default_limits();
    lua_State *L = lua_newstate(engine_alloc, engine);
    if (L == NULL) {
        free(engine);
        return NULL;
    }
    engine->L = L;
    *(abrl_engine **)lua_getextraspace(L) = engine;
    lua_atpanic(L, panic);
    if (abrl_call(engine, abrl_sandbox_install, NULL) != ABRL_OK) {
        abrl_engine_close(engine);
        return NULL;
    }
    return engine;
}

void abrl_engine_close(abrl_engine *engine) {
    if (engine == NULL) return;
    lua_close(engine->L);
    free(engine);
}

const char *abrl_engine_message(const abrl_engine *engine) {
    return engine->message;
}

static int collect_body(lua_State *L) {
    lua_gc(L, LUA_GCCOLLECT);
    return 0;
}

void abrl_engine_collect(abrl_engine *engine) {
    abrl_call(engine, collect_body, NULL);
}

size_t abrl_engine_memory_bytes(const abrl_engine *engine) {
    return engine->memory_used;
}

size_t abrl_engine_cache_bytes(const abrl_engine *engine) {
    return engine->cache_bytes;
}
