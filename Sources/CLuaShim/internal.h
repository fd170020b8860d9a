#ifndef ABRLAB_CLUA_SHIM_INTERNAL_H
#define ABRLAB_CLUA_SHIM_INTERNAL_H

#include "CLuaShim.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>

/* The count hook fires every this many VM instructions; the budget is charged in these steps. */
#define ABRL_HOOK_STEP 1000
/* One budget unit per this many bytes allocated during a call. */
#define ABRL_ALLOC_SHIFT 6
#define ABRL_MESSAGE_SIZE 4096
#define ABRL_WHERE_SIZE (LUA_IDSIZE + 24)

struct abrl_engine {
    lua_State *L;
    abrl_limits limits;
    size_t memory_used;
    size_t cache_bytes;      /* held by compiled scripts kept for reuse; outside the cap */
    int memory_refused;      /* the cap refused an allocation during this call */
    long long steps_used;    /* instructions charged during this call */
    size_t bytes_allocated;  /* bytes allocated during this call */
    double deadline;         /* monotonic seconds; 0 until the call's first hook (or with the backstop off) */
    int exceeded;            /* 0, ABRL_ERR_BUDGET or ABRL_ERR_TIME; sticky until the call ends */
    int pending_code;        /* a code a protected body sets before raising or returning */
    char where[ABRL_WHERE_SIZE];
    char message[ABRL_MESSAGE_SIZE];
};

/* Registry keys (their addresses are the keys). */
extern const char abrl_key_globals;   /* the read-only sandbox globals */
extern const char abrl_key_env_meta;  /* metatable of session environments */
extern const char abrl_key_math_meta; /* metatable of per-session math tables */
extern const char abrl_key_load;      /* the base library's load */

/* engine.c */
abrl_engine *abrl_engine_of(lua_State *L);
/* Runs body(data) in protected mode under the per-call limits; returns an ABRL_ code. */
int abrl_call(abrl_engine *engine, lua_CFunction body, void *data);
/* Charges library work to the budget; raises once the budget is spent. */
void abrl_charge(lua_State *L, uint64_t units);
/* The units abrl_charge may still take without raising; 0 once the budget is spent. */
uint64_t abrl_budget_left(lua_State *L);
void abrl_set_message(abrl_engine *engine, const char *format, ...);
/* Records a script-shape problem and raises it. */
int abrl_script_error(lua_State *L, int code, const char *format, ...);
/* Renders a value without calling metamethods. */
/* A number for messages: the shortest text that reads back as `value`, NaN as "NaN" and
   infinities as "inf" and "-inf". */
void abrl_format_number(double value, char *buffer, size_t size);
void abrl_render_value(lua_State *L, int index, char *buffer, size_t size);

/* sandbox.c */
int abrl_sandbox_install(lua_State *L);
/* Pushes a fresh session environment whose math.random is seeded with `seed`; with a host it
   also holds require and abrlab. */
void abrl_push_env(lua_State *L, lua_Integer seed, const abrl_host *host);
/* The metatable field that marks read-only library views. */
int abrl_is_readonly(lua_State *L, int index);
int abrl_readonly_newindex(lua_State *L);

/* host.c */
/* Longest name require accepts. */
#define ABRL_MODULE_NAME_MAX 48
/* Registry key of the compiled modules, by label and text. */
extern const char abrl_key_modules;
/* Registers the model handle's metatable and the module cache. */
void abrl_host_install(lua_State *L);
/* Adds require (with its own loaded table) and abrlab to the environment at `env`. */
void abrl_env_add_host(lua_State *L, int env, const abrl_host *host);

/* buffers.c */
/* Makes lauxlib's buffer metatable; runs before any script. */
void abrl_buffers_install(lua_State *L);
/* Wraps the library functions that build long strings in buffers (string.rep's cap included). */
void abrl_patch_buffers(lua_State *L, int string_table, int table_table, int utf8_table);

/* sandbox_lib.c */
void abrl_patch_string(lua_State *L, int string_table);
void abrl_patch_table(lua_State *L, int table_table);
/* The budget units a loop over first…last costs (at least 1). */
uint64_t abrl_span(lua_Integer first, lua_Integer last);

/* random.c */
/* Pushes a per-session math table: random and randomseed over their own state. */
void abrl_push_session_math(lua_State *L, lua_Integer seed);

/* context.c */
typedef struct abrl_context_refs {
    int ctx, throughputs, download_times, sizes, report, levels_bps, progress, wait;
} abrl_context_refs;
void abrl_context_create(lua_State *L, const abrl_session_info *info, abrl_context_refs *refs);
void abrl_set_integer(lua_State *L, int table, const char *key, lua_Integer value);
void abrl_set_number(lua_State *L, int table, const char *key, lua_Number value);
/* Accepts an integer (or integral float) level in 1…level_count at `index` and stores it
   0-based; otherwise records what was wrong in the engine's message and returns 0. */
int abrl_read_level(lua_State *L, int index, abrl_session *session, long long *level);
/* Sets table[key] to the number when `present`, else to nil. */
void abrl_set_optional_number(lua_State *L, int table, const char *key, int present, lua_Number value);
/* Sets table[key] to the value on top of the stack and pops it. */
void abrl_set_value(lua_State *L, int table, const char *key);
void abrl_push_levels_kbps(lua_State *L, const abrl_session_info *info);
/* live.c: the live fields of the session table, ctx and report. */
void abrl_session_table_add_live(lua_State *L, int table, const abrl_session_info *info);
void abrl_write_chunks(lua_State *L, int table, const char *key, const abrl_chunk *chunks, size_t count);
void abrl_set_live_fields(lua_State *L, int ctx, const abrl_live *live);
/* context.c: an optional numeric result of choose (delay, playback rate), checked against min…max. */
void abrl_read_optional_result(lua_State *L, int index, double min, double max, double *value, const char *format);
/* Gives a table a metatable whose __index raises "<what> has no field 'x'" for keys not in
   `known` (NULL-terminated), so a misspelt field fails where it is read. */
void abrl_set_strict(lua_State *L, int table, const char *what, const char *const *known);
/* The sandbox's pairs: keys in a fixed order (ordered_pairs.c), sorted with the sandbox's
   table.sort, which the registry keeps under abrl_key_sort. */
extern const char abrl_key_sort;
int abrl_ordered_pairs(lua_State *L);
/* The video as ctx.size_bytes and ctx:mpc_search read it, copied once per session into a
   userdata both closures share. */
typedef struct abrl_video {
    long long segment_count; /* segments whose sizes `cells` holds */
    long long level_count;
    double segment_duration_s;
    long long cells[];       /* sizes, segment-major; then level_count bitrates (double, kbps) */
} abrl_video;
/* The ladder's bitrates, kbps, stored after the sizes. */
const double *abrl_video_kbps(const abrl_video *video);
/* host.c: pushes ctx.mpc_search, whose search the host runs, over the video userdata at `video`. */
void abrl_push_mpc_search(lua_State *L, int video, const abrl_host *host);

struct abrl_session {
    abrl_engine *engine;
    int form;
    int choose, on_download, check_abandon, on_wait;
    int seed_functions[3];
    abrl_context_refs refs;
    long long level_count;
    long long downloads_written;
    long long *levels_bps;
};

extern const char *const abrl_quality_names[5];

/* quality.c: sets ctx.quality(segment, level), which returns the VMAF and SSIM of a segment at
   a level (1-based), nil where the video has none. */
void abrl_context_add_quality(lua_State *L, int ctx, const abrl_session_info *info);

#endif
