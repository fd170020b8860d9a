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
    long long call_limit;    /* the budget of this call: the per-call one, or a session's remainder */
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
/* abrl_call for a session's function: the call's budget is also the session's remainder, and
   ABRL_ERR_SESSION_BUDGET says when that remainder ran out. */
int abrl_session_call(abrl_session *session, lua_CFunction body, void *data);
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
    int ctx, throughputs, download_times, sizes, report, levels_bps, progress, wait, playback;
} abrl_context_refs;
void abrl_context_create(lua_State *L, const abrl_session_info *info, abrl_context_refs *refs);
/* Accepts an integer (or integral float) level in 1…level_count at `index` and stores it
   0-based; otherwise records what was wrong in the engine's message and returns 0. */
int abrl_read_level(lua_State *L, int index, abrl_session *session, long long *level);
/* context.c: an optional numeric result of choose (delay, playback rate), checked against min…max. */
void abrl_read_optional_result(lua_State *L, int index, double min, double max, double *value, const char *format);
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
static inline const double *abrl_video_kbps(const abrl_video *video) {
    return (const double *)(video->cells + video->segment_count * video->level_count);
}
/* host.c: pushes ctx.mpc_search, whose search the host runs, over the video userdata at `video`. */
void abrl_push_mpc_search(lua_State *L, int video, const abrl_host *host);
/* quality.c: pushes ctx.quality(segment, level), which returns the VMAF and SSIM of a segment
   at a level (1-based), nil where the video has none. */
void abrl_push_quality(lua_State *L, const abrl_session_info *info);

/* api.c: the Lua API's tables. Each field says which record fills it (its group) and how. */
enum {
    ABRL_GROUP_SETTING = 0, /* abrl_setting: what holds for a whole session */
    ABRL_GROUP_DECISION,    /* abrl_decision */
    ABRL_GROUP_LIVE,        /* abrl_live, on the live profile only */
    ABRL_GROUP_DASHJS,      /* abrl_dashjs, on the dashjs profile only */
    ABRL_GROUP_DOWNLOAD,    /* abrl_download */
    ABRL_GROUP_CHUNK,       /* abrl_chunk */
    ABRL_GROUP_PROGRESS,    /* abrl_progress */
    ABRL_GROUP_WAIT,        /* abrl_wait */
    ABRL_GROUP_PLAYBACK,    /* abrl_playback */
    ABRL_GROUP_QOE_SEGMENT, /* abrl_qoe_segment */
    ABRL_GROUP_QOE_SESSION, /* abrl_qoe_session */
    ABRL_GROUP_COUNT
};

/* How a field reads its record at `offset` (and `extra`). With ABRL_NIL_UNSET a sentinel reads
   as nil: NaN for numbers, a negative index, a NULL array. */
enum {
    ABRL_READ_INTEGER = 0, /* long long */
    ABRL_READ_INDEX,       /* long long, 0-based: shown 1-based */
    ABRL_READ_NUMBER,      /* double */
    ABRL_READ_BOOLEAN,     /* int */
    ABRL_READ_STRING,      /* const char *, its size_t length at `extra` */
    ABRL_READ_NAME,        /* int selecting one of `names`, clamped into 0…`extra` − 1 */
    ABRL_READ_NUMBERS,     /* const double *, its long long count at `extra`: a new array */
    ABRL_READ_CHUNKS,      /* const abrl_chunk *, its size_t count at `extra`: the table's own array, refilled */
    ABRL_READ_VALUE        /* int: the stack slot of a value made before the fill */
};

typedef struct abrl_field {
    abrl_api_field api;
    int group;
    size_t offset;
    int read;
    size_t extra;
    const char *const *names;
    int per_session; /* a session's own (trace, seed): not in the video table */
} abrl_field;

typedef struct abrl_table {
    const char *name;
    const char *class_name;
    int strict;
    int skips_per_session;
    const abrl_field *fields;
    size_t count;
} abrl_table;

extern const abrl_table abrl_tables[ABRL_TABLE_COUNT];

/* What the setting group reads: the session info and the values made for it beforehand. */
typedef struct abrl_setting {
    abrl_session_info info;
    int live;                       /* info.target_latency_s is a number */
    int params;                     /* stack slots */
    int size_bytes, quality, mpc_search;
    int throughputs, download_times, sizes;
} abrl_setting;

/* A setting record of `info` with no stack slots yet. */
void abrl_setting_init(abrl_setting *setting, const abrl_session_info *info);

/* What on_wait's table reads. */
typedef struct abrl_wait {
    double wait_s;
    double buffer_s;
} abrl_wait;

/* fill.c: sets the fields of `table` (declared as `table_id`) that `group` fills from `record`,
   with raw sets, so a metatable a script puts on the table cannot intercept them. */
void abrl_fill(lua_State *L, int table, int table_id, int group, const void *record);
/* Gives the table at `index` the metatable of its declaration's strictness: reading a field
   that is not declared raises "<name> has no field 'x'"; declared fields that may be nil read
   as nil. */
void abrl_set_strict(lua_State *L, int index, int table_id);

struct abrl_session {
    abrl_engine *engine;
    int form;
    int choose, on_download, check_abandon, on_wait, on_playback;
    int seed_functions[3];
    abrl_context_refs refs;
    long long level_count;
    long long downloads_written;
    long long *levels_bps;
    long long instructions_left; /* of the session's budget across all its calls */
};

extern const char *const abrl_quality_names[5];

#endif
