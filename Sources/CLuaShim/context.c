/* The ctx and report tables: made once per session and kept in the registry; each decision
   overwrites their fields and appends only the downloads ctx has not seen yet. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Raw sets: a metatable a script puts on its ctx cannot intercept the refresh. */
void abrl_set_integer(lua_State *L, int table, const char *key, lua_Integer value) {
    lua_pushstring(L, key);
    lua_pushinteger(L, value);
    lua_rawset(L, table);
}

void abrl_set_number(lua_State *L, int table, const char *key, lua_Number value) {
    lua_pushstring(L, key);
    lua_pushnumber(L, value);
    lua_rawset(L, table);
}

void abrl_set_value(lua_State *L, int table, const char *key) {
    lua_pushstring(L, key);
    lua_insert(L, -2);
    lua_rawset(L, table);
}

/* __index of strict tables: fields that may be nil read as nil, anything else is a mistake. */
static int strict_index(lua_State *L) {
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    if (key != NULL) {
        const char *const *known = lua_touserdata(L, lua_upvalueindex(2));
        for (; *known != NULL; known++) {
            if (strcmp(*known, key) == 0) return 0;
        }
        return luaL_error(L, "%s has no field '%s'", lua_tostring(L, lua_upvalueindex(1)), key);
    }
    char rendered[64];
    abrl_render_value(L, 2, rendered, sizeof rendered);
    return luaL_error(L, "%s has no field %s", lua_tostring(L, lua_upvalueindex(1)), rendered);
}

void abrl_set_strict(lua_State *L, int table, const char *what, const char *const *known) {
    lua_createtable(L, 0, 1);
    lua_pushstring(L, what);
    lua_pushlightuserdata(L, (void *)known);
    lua_pushcclosure(L, strict_index, 2);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, table);
}

static const char *const ctx_nilable[] = {
    "last_level", "throughput_estimate_kbps", "latency_estimate_s", "live_latency_s", "target_latency_s",
    "playback_rate", "live_edge_s", "playhead_s", "chunk_duration_s", "last_chunks", NULL};
static const char *const report_nilable[] = {"abandoned_to_level", "chunks", NULL};
static const char *const none_nilable[] = {NULL};

void abrl_push_levels_kbps(lua_State *L, const abrl_session_info *info) {
    lua_createtable(L, (int)info->level_count, 0);
    for (long long i = 0; i < info->level_count; i++) {
        lua_pushnumber(L, info->levels_kbps[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

const double *abrl_video_kbps(const abrl_video *video) {
    return (const double *)(video->cells + video->segment_count * video->level_count);
}

/* ctx.size_bytes(segment, level), also callable as ctx:size_bytes(segment, level);
   1-based indices, 0 outside the video. */
static int size_bytes(lua_State *L) {
    const abrl_video *video = lua_touserdata(L, lua_upvalueindex(1));
    int first = lua_istable(L, 1) ? 2 : 1;
    lua_Integer segment = luaL_checkinteger(L, first);
    lua_Integer level = luaL_checkinteger(L, first + 1);
    if (segment < 1 || segment > video->segment_count || level < 1 || level > video->level_count) {
        lua_pushinteger(L, 0);
    } else {
        lua_pushinteger(L, video->cells[(segment - 1) * video->level_count + (level - 1)]);
    }
    return 1;
}

/* Pushes the video userdata: sizes, then bitrates. */
static void push_video(lua_State *L, const abrl_session_info *info) {
    size_t cells = (size_t)info->size_segment_count * (size_t)info->level_count;
    size_t levels = (size_t)info->level_count;
    abrl_video *video = lua_newuserdatauv(L, sizeof *video + cells * sizeof video->cells[0] + levels * sizeof(double), 0);
    video->segment_count = info->size_segment_count;
    video->level_count = info->level_count;
    video->segment_duration_s = info->segment_duration_s;
    if (cells > 0) memcpy(video->cells, info->sizes_bytes, cells * sizeof video->cells[0]);
    if (levels > 0) memcpy((double *)abrl_video_kbps(video), info->levels_kbps, levels * sizeof(double));
}

static int history_array(lua_State *L, int ctx, const char *key, int capacity) {
    lua_createtable(L, capacity, 0);
    lua_pushvalue(L, -1);
    abrl_set_value(L, ctx, key);
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

void abrl_context_create(lua_State *L, const abrl_session_info *info, abrl_context_refs *refs) {
    lua_createtable(L, 0, 24);
    int ctx = lua_gettop(L);
    abrl_set_integer(L, ctx, "segment_index", 1);
    abrl_set_integer(L, ctx, "segment_count", info->segment_count);
    abrl_set_number(L, ctx, "segment_duration_s", info->segment_duration_s);
    abrl_set_integer(L, ctx, "level_count", info->level_count);
    abrl_set_number(L, ctx, "max_buffer_s", info->max_buffer_s);
    abrl_push_levels_kbps(L, info);
    abrl_set_value(L, ctx, "levels_kbps");
    push_video(L, info);
    int video = lua_gettop(L);
    lua_pushvalue(L, video);
    lua_pushcclosure(L, size_bytes, 1);
    abrl_set_value(L, ctx, "size_bytes");
    abrl_push_mpc_search(L, video, info->host);
    abrl_set_value(L, ctx, "mpc_search");
    lua_remove(L, video);
    abrl_context_add_quality(L, ctx, info);
    int live = info->target_latency_s == info->target_latency_s;
    lua_pushboolean(L, live);
    abrl_set_value(L, ctx, "live");
    lua_pushstring(L, live ? "chunk" : "segment");
    abrl_set_value(L, ctx, "throughput_method");
    int capacity = info->segment_count > 0 && info->segment_count < 4096 ? (int)info->segment_count : 4096;
    refs->throughputs = history_array(L, ctx, "throughputs_kbps", capacity);
    refs->download_times = history_array(L, ctx, "download_times_s", capacity);
    refs->sizes = history_array(L, ctx, "sizes_bytes", capacity);
    abrl_set_strict(L, ctx, "ctx", ctx_nilable);
    refs->ctx = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 14);
    abrl_set_strict(L, lua_gettop(L), "report", report_nilable);
    refs->report = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 8);
    abrl_set_strict(L, lua_gettop(L), "progress", none_nilable);
    refs->progress = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 2);
    abrl_set_strict(L, lua_gettop(L), "wait", none_nilable);
    refs->wait = luaL_ref(L, LUA_REGISTRYINDEX);
    if (info->form == ABRL_FORM_SEED) {
        lua_createtable(L, (int)info->level_count, 0);
        for (long long i = 0; i < info->level_count; i++) {
            lua_pushinteger(L, info->levels_bps[i]);
            lua_rawseti(L, -2, i + 1);
        }
        refs->levels_bps = luaL_ref(L, LUA_REGISTRYINDEX);
    }
}

typedef struct choose_call {
    abrl_session *session;
    const abrl_decision *decision;
    long long first;
    const abrl_download *downloads;
    size_t count;
    long long level;
    double delay_s;
    double playback_rate;
} choose_call;

/* Writes downloads first+1… into the history arrays and cuts entries past the new end. */
static void append_history(lua_State *L, abrl_session *session, const choose_call *call) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->refs.throughputs);
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->refs.download_times);
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->refs.sizes);
    int sizes = lua_gettop(L), times = sizes - 1, throughputs = sizes - 2;
    lua_Integer position = call->first;
    for (size_t i = 0; i < call->count; i++) {
        const abrl_download *download = &call->downloads[i];
        position++;
        lua_pushnumber(L, download->throughput_kbps);
        lua_rawseti(L, throughputs, position);
        lua_pushnumber(L, download->download_time_s);
        lua_rawseti(L, times, position);
        lua_pushinteger(L, download->size_bytes);
        lua_rawseti(L, sizes, position);
    }
    for (lua_Integer stale = position + 1; stale <= session->downloads_written; stale++) {
        for (int array = throughputs; array <= sizes; array++) {
            lua_pushnil(L);
            lua_rawseti(L, array, stale);
        }
    }
    session->downloads_written = position;
    lua_pop(L, 3);
}

/* Accepts an integer (or integral float) level in 1…level_count at `index`; else records what
   came back and returns 0. */
int abrl_read_level(lua_State *L, int index, abrl_session *session, long long *level) {
    int is_integer = 0;
    lua_Integer value = lua_type(L, index) == LUA_TNUMBER ? lua_tointegerx(L, index, &is_integer) : 0;
    if (is_integer && value >= 1 && value <= session->level_count) {
        *level = value - 1;
        return 1;
    }
    abrl_engine *engine = abrl_engine_of(L);
    abrl_render_value(L, index, engine->message, sizeof engine->message);
    engine->pending_code = ABRL_ERR_RESULT;
    return 0;
}

/* An optional result of choose at `index`: nil leaves *value, a number in min…max sets it,
   anything else records the message `format` (one %s for the value) as a result error. */
void abrl_read_optional_result(lua_State *L, int index, double min, double max, double *value, const char *format) {
    int type = lua_type(L, index);
    if (type == LUA_TNIL || type == LUA_TNONE) return;
    int is_number = 0;
    double number = lua_tonumberx(L, index, &is_number);
    if (is_number && number >= min && number <= max) {
        *value = number;
        return;
    }
    abrl_engine *engine = abrl_engine_of(L);
    char rendered[64];
    abrl_render_value(L, index, rendered, sizeof rendered);
    abrl_set_message(engine, format, rendered);
    engine->pending_code = ABRL_ERR_RESULT;
}

void abrl_set_optional_number(lua_State *L, int table, const char *key, int present, lua_Number value) {
    if (present) lua_pushnumber(L, value); else lua_pushnil(L);
    abrl_set_value(L, table, key);
}

static int choose_body(lua_State *L) {
    choose_call *call = lua_touserdata(L, 1);
    abrl_session *session = call->session;
    const abrl_decision *decision = call->decision;
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->refs.ctx);
    int ctx = lua_gettop(L);
    abrl_set_integer(L, ctx, "segment_index", decision->segment_index + 1);
    if (decision->last_level >= 0) {
        abrl_set_integer(L, ctx, "last_level", decision->last_level + 1);
    } else {
        lua_pushnil(L);
        abrl_set_value(L, ctx, "last_level");
    }
    abrl_set_number(L, ctx, "buffer_s", decision->buffer_s);
    abrl_set_number(L, ctx, "rebuffer_s", decision->rebuffer_s);
    abrl_set_integer(L, ctx, "stall_count", decision->stall_count);
    abrl_set_number(L, ctx, "elapsed_s", decision->elapsed_s);
    abrl_set_number(L, ctx, "estimate_kbps", decision->estimate_kbps);
    /* NaN marks an estimate the profile does not have yet. */
    abrl_set_optional_number(L, ctx, "throughput_estimate_kbps", decision->throughput_estimate_kbps == decision->throughput_estimate_kbps, decision->throughput_estimate_kbps);
    abrl_set_optional_number(L, ctx, "latency_estimate_s", decision->latency_estimate_s == decision->latency_estimate_s, decision->latency_estimate_s);
    int quality = decision->network_quality < 0 ? 0 : decision->network_quality > 4 ? 4 : decision->network_quality;
    lua_pushstring(L, abrl_quality_names[quality]);
    abrl_set_value(L, ctx, "network_quality");
    /* A session is live or not throughout; off live the fields were never set and read as nil. */
    if (decision->live != NULL) abrl_set_live_fields(L, ctx, decision->live);
    append_history(L, session, call);
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->choose);
    lua_pushvalue(L, ctx);
    int base = lua_gettop(L) - 2;
    lua_call(L, 1, 3);
    abrl_engine *engine = abrl_engine_of(L);
    if (abrl_read_level(L, base + 1, session, &call->level)) {
        abrl_read_optional_result(L, base + 2, 0, 1e12, &call->delay_s, "a delay of %s; delays are seconds ≥ 0");
    }
    /* The rate's limits are dash.js's (LiveSettings.playbackRateRange). */
    if (engine->pending_code == ABRL_OK) {
        abrl_read_optional_result(L, base + 3, 0.5, 2, &call->playback_rate, "a playback rate of %s; rates are nil or 0.5…2");
    }
    return 0;
}

int abrl_session_choose(abrl_session *session, const abrl_decision *decision,
                        long long first_download, const abrl_download *downloads,
                        size_t download_count, long long *level, double *delay_s,
                        double *playback_rate) {
    choose_call call = {session, decision, first_download, downloads, download_count, 0, 0, NAN};
    int code = abrl_call(session->engine, choose_body, &call);
    if (code == ABRL_OK) {
        *level = call.level;
        *delay_s = call.delay_s;
        *playback_rate = call.playback_rate;
    }
    return code;
}

typedef struct report_call {
    abrl_session *session;
    const abrl_download *record;
} report_call;

static int report_body(lua_State *L) {
    report_call *call = lua_touserdata(L, 1);
    const abrl_download *record = call->record;
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->refs.report);
    int report = lua_gettop(L);
    abrl_set_integer(L, report, "segment_index", record->segment_index + 1);
    abrl_set_integer(L, report, "level", record->level + 1);
    abrl_set_integer(L, report, "size_bytes", record->size_bytes);
    abrl_set_number(L, report, "download_time_s", record->download_time_s);
    abrl_set_number(L, report, "throughput_kbps", record->throughput_kbps);
    abrl_set_number(L, report, "rebuffer_s", record->rebuffer_s);
    abrl_set_number(L, report, "buffer_s", record->buffer_s);
    abrl_set_number(L, report, "wait_s", record->wait_s);
    abrl_set_number(L, report, "latency_s", record->latency_s);
    abrl_set_number(L, report, "received_bytes", record->received_bytes);
    lua_pushboolean(L, record->abandoned);
    abrl_set_value(L, report, "abandoned");
    lua_pushboolean(L, record->replacement);
    abrl_set_value(L, report, "replacement");
    lua_pushstring(L, "abandoned_to_level");
    if (record->abandoned_to_level >= 0) lua_pushinteger(L, record->abandoned_to_level + 1); else lua_pushnil(L);
    lua_rawset(L, report);
    if (record->chunks != NULL) {
        abrl_write_chunks(L, report, "chunks", record->chunks, record->chunk_count);
    } else {
        lua_pushnil(L);
        abrl_set_value(L, report, "chunks");
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->on_download);
    lua_pushvalue(L, report);
    lua_call(L, 1, 0);
    return 0;
}

int abrl_session_on_download(abrl_session *session, const abrl_download *record) {
    if (session->on_download == LUA_NOREF) return ABRL_OK;
    report_call call = {session, record};
    return abrl_call(session->engine, report_body, &call);
}
