#ifndef ABRLAB_CLUA_SHIM_H
#define ABRLAB_CLUA_SHIM_H

#include <stddef.h>

#include "abrl_api.h"
#include "abrl_dashjs.h"

/* An opaque Lua engine. Swift never sees lua_State; every call that can raise a Lua
   error runs inside lua_pcall here, so no longjmp crosses a Swift frame. Every function
   leaves the Lua stack top as it found it. An engine belongs to one thread at a time. */
typedef struct abrl_engine abrl_engine;

/* One strategy instance for one session, living in an engine. */
typedef struct abrl_session abrl_session;

/* Result codes shared with Swift. On failure the engine keeps a message
   (abrl_engine_message) whose meaning depends on the code, as noted. */
enum {
    ABRL_OK = 0,
    ABRL_ERR_SYNTAX = 1,  /* message: Lua's "chunk:line: text" */
    ABRL_ERR_RUNTIME = 2, /* message: the error, "chunk:line: text" when Lua knows where */
    ABRL_ERR_MEMORY = 3,  /* the engine's memory cap was hit; message empty */
    ABRL_ERR_TYPE = 4,    /* a value had the wrong type; message says which */
    ABRL_ERR_BUDGET = 5,  /* instruction budget exceeded; message: "chunk:line" where, or empty */
    ABRL_ERR_TIME = 6,    /* wall-clock backstop exceeded; message: "chunk:line" where, or empty */
    ABRL_ERR_SCRIPT = 7,  /* the script's shape is wrong (no choose, …); message says how */
    ABRL_ERR_RESULT = 8,  /* a strategy function returned an unusable value; message renders it */
    ABRL_ERR_SESSION_BUDGET = 9 /* the session's budget across all its calls is spent; message as for BUDGET */
};

/* A session may spend this many times the per-call budget across all its calls (choose and every
   hook), so a hook called thousands of times cannot run for hours. */
#define ABRL_SESSION_CALL_BUDGETS 1000

/* Limits of one engine. Budget and time apply to each call into Lua; memory to the engine. */
typedef struct abrl_limits {
    long long instructions_per_call; /* VM instructions, plus one per 64 bytes allocated */
    double seconds_per_call;         /* wall-clock backstop; 0 disables it */
    size_t memory_bytes;             /* cap on everything the engine allocates */
    size_t string_rep_bytes;         /* largest result string.rep may build */
    int verbose;                     /* tracebacks in runtime errors; print writes to stderr */
} abrl_limits;

/* The defaults documented in docs/lua-api.md. */
abrl_limits abrl_default_limits(void);

/* Opens a sandboxed engine; NULL when the limits leave no room for Lua itself. */
abrl_engine *abrl_engine_open(const abrl_limits *limits);
void abrl_engine_close(abrl_engine *engine);

/* The message of the last failed call, NUL-terminated; valid until the next call. */
const char *abrl_engine_message(const abrl_engine *engine);

/* Bytes the engine holds right now. */
size_t abrl_engine_memory_bytes(const abrl_engine *engine);

/* A full garbage collection, so that the bytes held are what is still reachable. */
void abrl_engine_collect(abrl_engine *engine);

/* Bytes of compiled scripts the engine keeps for reuse; they are not counted against its cap. */
size_t abrl_engine_cache_bytes(const abrl_engine *engine);

/* Runs a text chunk in a fresh sandbox environment and converts its first result to a number. */
int abrl_eval_number(abrl_engine *engine, const char *source, size_t length,
                     const char *chunk_name, double *out);

/* Compiles a script (text only) and keeps it in the engine; *chunk_ref names it from then on.
   What the kept chunk holds is added to the engine's cache bytes, on top of its cap. */
int abrl_script_compile(abrl_engine *engine, const char *source, size_t length,
                        const char *chunk_name, int *chunk_ref);

/* Drops compiled chunks the engine kept (every one it has: the cache bytes go back to zero). */
void abrl_script_release(abrl_engine *engine, const int *chunk_refs, size_t count);

/* A model a script loaded with abrlab.model, as the host describes it. */
typedef struct abrl_model_info {
    const void *model;  /* passed back to the host's forward */
    long long rows;     /* the state it takes: rows × columns numbers */
    long long columns;
    long long outputs;  /* probabilities it returns */
    long long cost;     /* instruction-budget units charged per forward call */
    int steps;          /* 1: the outputs are one level down, stay, one level up; 0: levels */
} abrl_model_info;

/* ctx:mpc_search's question to the host: RobustMPC's look-ahead search from the state ctx
   holds, over `depth` segments from 0-based `first_segment` (segments outside the video have
   size 0). Pointers are valid during the call only. */
typedef struct abrl_mpc_question {
    const double *levels_kbps;     /* level_count entries, lowest first */
    const long long *sizes_bytes;  /* segment-major: [segment * level_count + level] */
    long long level_count;
    long long size_segment_count;  /* segments sizes_bytes holds */
    long long first_segment;       /* within -10 … size_segment_count */
    long long depth;               /* 1 … 10 */
    long long last_level;          /* 0-based */
    double segment_duration_s;
    double bandwidth_MBps;
    double buffer_s;
    double rebuffer_penalty;
    double smoothness_penalty;
    unsigned long long node_limit; /* the search stops once it has visited more nodes than this */
} abrl_mpc_question;

/* The host's answer. */
typedef struct abrl_mpc_answer {
    long long level;          /* 0-based first level of the best sequence */
    double reward;            /* that sequence's reward */
    unsigned long long nodes; /* search-tree nodes visited, leaves included */
    int finished;             /* 0: stopped past node_limit; level and reward mean nothing */
} abrl_mpc_answer;

/* What the host (Swift) provides to a script beyond the sandbox: the sources of the modules
   it requires and the models it loads, both files of the script's folder, and the MPC search
   behind ctx:mpc_search. Callbacks run inside a Lua call; they never touch Lua and never raise.
   On failure they write a NUL-terminated message (without a place) and return nonzero. Pointers they hand out stay valid as long as
   `context` lives, which outlives every session the host opens. */
typedef struct abrl_host {
    void *context;
    /* The text of module `name` (checked: letters, digits, _ and dots between names) and the
       label that names its file in messages (`lib/x.lua`). */
    int (*read_module)(void *context, const char *name, const char **source, size_t *length,
                       const char **label, char *message, size_t message_size);
    /* Loads the model file at `path`, relative to the script's folder. */
    int (*load_model)(void *context, const char *path, abrl_model_info *model,
                      char *message, size_t message_size);
    /* Evaluates a model on rows × columns finite numbers (row-major); writes `outputs` values. */
    void (*forward)(const void *model, const double *input, double *output);
    /* Runs RobustMPC's search for ctx:mpc_search (the native robust_mpc-native's search). */
    void (*mpc_search)(const abrl_mpc_question *question, abrl_mpc_answer *answer);
} abrl_host;

/* Script forms. */
enum { ABRL_FORM_SESSION = 0, ABRL_FORM_SEED = 1 };

/* Parameter types, taken from each default's Lua type. */
enum { ABRL_PARAM_NUMBER = 0, ABRL_PARAM_INTEGER = 1, ABRL_PARAM_BOOLEAN = 2, ABRL_PARAM_STRING = 3 };

/* One parameter. Key and string value live in a separate text block, addressed by offset,
   so the struct holds no pointer and Swift can keep arrays of it. */
typedef struct abrl_param {
    size_t key_offset; /* NUL-terminated key */
    size_t string_offset;
    size_t string_length;
    long long integer;
    double number;
    int type;
    int boolean;
    int integer_only; /* param_types declares it "integer": overrides must be integers */
} abrl_param;

/* What a script declares, read by running its top level once. */
typedef struct abrl_inspection {
    char *name;        /* NULL when absent */
    char *description; /* NULL when absent */
    int form;
    char *text;        /* keys and string values of params */
    size_t text_length;
    abrl_param *params;
    size_t param_count;
} abrl_inspection;

/* Runs the script's top level with seed 0 and reports what it declares; *out is freed
   with abrl_inspection_free. `host` may be NULL: require and abrlab are then absent. */
int abrl_script_inspect(abrl_engine *engine, int chunk_ref, const abrl_host *host,
                        abrl_inspection **out);
void abrl_inspection_free(abrl_inspection *inspection);

/* What a session tells the script once. Arrays are read during abrl_session_open only. */
typedef struct abrl_session_info {
    long long segment_count;
    long long level_count;
    long long size_segment_count; /* segments whose sizes sizes_bytes holds */
    long long seed;               /* bit pattern of the session seed */
    double segment_duration_s;
    double max_buffer_s;
    const double *levels_kbps;    /* level_count entries, lowest first */
    const long long *levels_bps;  /* the same ladder in bits per second */
    const long long *sizes_bytes; /* segment-major: [segment * level_count + level] */
    const char *trace;
    size_t trace_length;
    const char *profile;
    size_t profile_length;
    const char *param_text;       /* effective params, as abrl_param */
    const abrl_param *params;
    size_t param_count;
    int form;
    const abrl_host *host;        /* modules, models and the MPC search; NULL leaves require and
                                     abrlab absent and makes ctx:mpc_search an error */
    const struct abrl_quality *quality; /* per-segment quality for ctx:quality; NULL when none */
    double target_latency_s;      /* live profile; NaN on demand */
    double chunk_duration_s;      /* live profile; NaN on demand */
} abrl_session_info;

/* Runs the script's top level in a fresh environment seeded with info->seed, writes the
   effective params into its params table and calls its setup(session). */
int abrl_session_open(abrl_engine *engine, int chunk_ref, const abrl_session_info *info,
                      abrl_session **out);
/* Runs the script's top level in a fresh environment seeded with info->seed, writes the
   effective params and calls its optional check(video), once before any session of a run.
   *fits is 1 when there is no check or it returned nil or true; 0 when it returned a string,
   which the engine's message then holds (why the strategy cannot play the video). */
int abrl_script_check(abrl_engine *engine, int chunk_ref, const abrl_session_info *info, int *fits);
/* Releases the session's Lua state; call on the engine's thread. */
void abrl_session_close(abrl_session *session);
/* Frees the session's C memory without touching Lua, for a session dropped on another thread;
   its Lua state stays until the engine closes. */
void abrl_session_abandon(abrl_session *session);

/* One chunk of a live download; times are session seconds. */
typedef struct abrl_chunk {
    long long size_bytes;
    double available_s;
    double first_byte_s;
    double arrival_s;
} abrl_chunk;

/* Where a live player stands when a level is chosen. */
typedef struct abrl_live {
    double latency_s;
    double target_latency_s;
    double playback_rate;
    double live_edge_s;
    double playhead_s;
    double chunk_duration_s;
    const abrl_chunk *chunks; /* the latest download's chunks */
    size_t chunk_count;
} abrl_live;

/* The state of the player when a level is chosen. Indices are 0-based here. */
typedef struct abrl_decision {
    long long segment_index;
    long long last_level;     /* -1 before the first download */
    long long stall_count;
    double buffer_s;
    double rebuffer_s;
    double elapsed_s;
    double estimate_kbps;
    double throughput_estimate_kbps; /* the profile's estimator; NaN before its first sample */
    double latency_estimate_s;       /* NaN before the first sample */
    int network_quality;      /* 0 offline … 4 excellent */
    const abrl_live *live;    /* NULL off the live profile */
    const abrl_dashjs *dashjs; /* NULL off the dashjs profile */
} abrl_decision;

/* One finished request. Indices are 0-based here. */
typedef struct abrl_download {
    long long segment_index;
    long long level;
    long long size_bytes;
    long long abandoned_to_level; /* -1 when not abandoned or abandoned without a level */
    double download_time_s;
    double throughput_kbps;
    double rebuffer_s;
    double buffer_s;
    double wait_s;
    double latency_s;
    double received_bytes;
    int abandoned;
    int replacement;
    const abrl_chunk *chunks; /* live profile: the segment's chunks; read by on_download only */
    size_t chunk_count;
} abrl_download;

/* A download under way, for check_abandon(progress). Indices are 0-based here. */
typedef struct abrl_progress {
    long long segment_index;
    long long level;
    double size_bytes;
    double received_bytes;
    double elapsed_s;
    double ttfb_s;
    double buffer_s;
} abrl_progress;

/* Refreshes ctx and calls choose(ctx). The download history is sent incrementally:
   `downloads` holds the records from 0-based position `first_download` on, and the history
   is cut to first_download + download_count entries. *level is 0-based; *delay_s is the
   optional second result (0 when absent); *playback_rate the optional third (NaN when nil). */
int abrl_session_choose(abrl_session *session, const abrl_decision *decision,
                        long long first_download, const abrl_download *downloads,
                        size_t download_count, long long *level, double *delay_s,
                        double *playback_rate);

/* Calls on_download(report) when the script defines it. */
int abrl_session_on_download(abrl_session *session, const abrl_download *record);

/* When check_abandon asks to be called again during this download (its optional second
   result); -inf in a field means no condition. */
typedef struct abrl_recheck {
    double elapsed_s;
    double projected_s;
} abrl_recheck;

/* Calls check_abandon(progress); *has_level is 0 when it answered nil or false, else *level
   is the 0-based level it asked for (checked against the level being downloaded by the caller).
   *recheck holds the recheck it asked for with nil or false, else no condition. */
int abrl_session_check_abandon(abrl_session *session, const abrl_progress *progress,
                               long long *level, int *has_level, abrl_recheck *recheck);

/* Where check_abandon is defined: the engine's message becomes its chunk name (the script's or
   a module's label) and *line its first line; *line is 0 when the script has none or Lua
   cannot tell. */
int abrl_session_check_abandon_source(abrl_session *session, long long *line);

/* Calls on_wait(wait) when the script defines it: the player waited wait_s on a full buffer. */
int abrl_session_on_wait(abrl_session *session, double wait_s, double buffer_s);

/* A live playback update, for on_playback(playback). segment_index is 0-based here. */
typedef struct abrl_playback {
    double now_s, buffer_s, live_latency_s, target_latency_s, playback_rate, playhead_s, live_edge_s;
    long long segment_index, chunks_arrived;
    int stalled;
} abrl_playback;

/* Whether the script defines on_playback. */
int abrl_session_updates_playback(const abrl_session *session);
/* Calls on_playback(playback) when the script defines it: *has_rate is 1 when it returned a
   rate (0.5…2, in *rate), 0 when it returned nil; another result is ABRL_ERR_RESULT with
   "file:line: on_playback returned …" (the line where on_playback is defined). */
int abrl_session_on_playback(abrl_session *session, const abrl_playback *playback, double *rate, int *has_rate);

/* The three questions of the question form. */
enum { ABRL_SEED_INITIAL = 0, ABRL_SEED_UPGRADE = 1, ABRL_SEED_DOWNGRADE = 2 };

/* Asks a seed-form script one question. `value` is buffer health for an upgrade and the
   rebuffering ratio for a downgrade. *has_bitrate is 0 when the script answered nil. */
int abrl_session_seed(abrl_session *session, int question, long long current_bps, double value,
                      int network_quality, long long *bitrate_bps, int *has_bitrate);

/* Per-segment quality scores (quality.c), read during abrl_session_open only: segment-major
   arrays of segment_count * level_count scores, NULL for a metric the video does not carry. */
typedef struct abrl_quality {
    long long segment_count;
    long long level_count;
    const double *vmaf; /* 0-100 */
    const double *ssim; /* an index, at most 1 */
} abrl_quality;

/* QoE models written in Lua (qoe.c): a script returns a table with qoe(segment, session),
   called once per segment of a finished session, returning that segment's score. */
typedef struct abrl_qoe abrl_qoe;

/* What the session table of a QoE script holds; strings are read during abrl_qoe_open only. */
typedef struct abrl_qoe_session {
    long long segment_count;      /* segments the session played */
    long long level_count;
    long long seed;               /* bit pattern of the session seed */
    double segment_duration_s;
    double startup_s;
    const double *levels_kbps;    /* level_count entries, lowest first */
    const char *trace;
    size_t trace_length;
    const char *profile;
    size_t profile_length;
} abrl_qoe_session;

/* One played segment. Indices are 0-based here; previous_level is -1 for the first segment.
   NaN marks a value the segment does not have (nil in Lua). */
typedef struct abrl_qoe_segment {
    long long index;
    long long level;
    long long previous_level;
    long long size_bytes;
    double bitrate_kbps;
    double previous_bitrate_kbps; /* NaN for the first segment */
    double duration_s;
    double rebuffer_s;
    double download_time_s;
    double throughput_kbps;
    double buffer_before_s;
    double buffer_after_s;
    double wait_s;
    double vmaf, previous_vmaf;   /* NaN when the video has no VMAF (previous: or no previous) */
    double ssim, previous_ssim;   /* likewise for SSIM */
} abrl_qoe_segment;

/* Runs a QoE script's top level with seed 0, checks it returns a table whose qoe is a function,
   and reports its name and description (form and params stay empty); free *out with
   abrl_inspection_free. `host` gives require (NULL: absent); a host without load_model leaves
   abrlab absent. */
int abrl_qoe_inspect(abrl_engine *engine, int chunk_ref, const abrl_host *host, abrl_inspection **out);
/* Runs the script's top level in a fresh environment seeded with session->seed and keeps its
   qoe function and a session table for abrl_qoe_score; `host` as for abrl_qoe_inspect. */
int abrl_qoe_open(abrl_engine *engine, int chunk_ref, const abrl_host *host, const abrl_qoe_session *session,
                  abrl_qoe **out);
/* Calls qoe(segment, session); *score is the finite number it returned. ABRL_ERR_RESULT: it
   returned something else, rendered in the message. */
int abrl_qoe_score(abrl_qoe *qoe, const abrl_qoe_segment *segment, double *score);
/* Releases the model's Lua state; call on the engine's thread. */
void abrl_qoe_close(abrl_qoe *qoe);

#endif
