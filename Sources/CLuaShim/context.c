/* The ctx and report tables: made once per session and kept in the registry; each decision
   overwrites their fields (fill.c, from api.c's declaration) and appends only the downloads ctx
   has not seen yet. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

/* Makes a strict table declared as `table_id` and keeps it in the registry. */
static int strict_table(lua_State *L, int table_id, int fields) {
    lua_createtable(L, 0, fields);
    abrl_set_strict(L, -1, table_id);
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

void abrl_context_create(lua_State *L, const abrl_session_info *info, abrl_context_refs *refs) {
    lua_createtable(L, 0, 24);
    int ctx = lua_gettop(L);
    abrl_setting setting;
    abrl_setting_init(&setting, info);
    push_video(L, info);
    int video = lua_gettop(L);
    lua_pushvalue(L, video);
    lua_pushcclosure(L, size_bytes, 1);
    setting.size_bytes = lua_gettop(L);
    abrl_push_mpc_search(L, video, info->host);
    setting.mpc_search = lua_gettop(L);
    abrl_push_quality(L, info);
    setting.quality = lua_gettop(L);
    int capacity = info->segment_count > 0 && info->segment_count < 4096 ? (int)info->segment_count : 4096;
    lua_createtable(L, capacity, 0);
    setting.throughputs = lua_gettop(L);
    lua_createtable(L, capacity, 0);
    setting.download_times = lua_gettop(L);
    lua_createtable(L, capacity, 0);
    setting.sizes = lua_gettop(L);
    abrl_fill(L, ctx, ABRL_TABLE_CTX, ABRL_GROUP_SETTING, &setting);
    refs->sizes = luaL_ref(L, LUA_REGISTRYINDEX);
    refs->download_times = luaL_ref(L, LUA_REGISTRYINDEX);
    refs->throughputs = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_settop(L, ctx);
    abrl_set_strict(L, ctx, ABRL_TABLE_CTX);
    refs->ctx = luaL_ref(L, LUA_REGISTRYINDEX);
    refs->report = strict_table(L, ABRL_TABLE_REPORT, 14);
    refs->progress = strict_table(L, ABRL_TABLE_PROGRESS, 8);
    refs->wait = strict_table(L, ABRL_TABLE_WAIT, 2);
    refs->playback = strict_table(L, ABRL_TABLE_PLAYBACK, 10);
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

static int choose_body(lua_State *L) {
    choose_call *call = lua_touserdata(L, 1);
    abrl_session *session = call->session;
    const abrl_decision *decision = call->decision;
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->refs.ctx);
    int ctx = lua_gettop(L);
    abrl_fill(L, ctx, ABRL_TABLE_CTX, ABRL_GROUP_DECISION, decision);
    /* A session is live or not throughout; off live the fields were never set and read as nil. */
    if (decision->live != NULL) abrl_fill(L, ctx, ABRL_TABLE_CTX, ABRL_GROUP_LIVE, decision->live);
    if (decision->dashjs != NULL) abrl_fill(L, ctx, ABRL_TABLE_CTX, ABRL_GROUP_DASHJS, decision->dashjs);
    append_history(L, session, call);
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->choose);
    lua_pushvalue(L, ctx);
    int base = lua_gettop(L) - 2;
    lua_call(L, 1, 3);
    abrl_engine *engine = abrl_engine_of(L);
    if (abrl_read_level(L, base + 1, session, &call->level)) {
        abrl_read_optional_result(L, base + 2, 0, 86400, &call->delay_s, "a delay of %s; delays are nil or 0…86400 s (the session limit)");
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
    int code = abrl_session_call(session, choose_body, &call);
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
    abrl_fill(L, report, ABRL_TABLE_REPORT, ABRL_GROUP_DOWNLOAD, record);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->on_download);
    lua_pushvalue(L, report);
    lua_call(L, 1, 0);
    return 0;
}

int abrl_session_on_download(abrl_session *session, const abrl_download *record) {
    if (session->on_download == LUA_NOREF) return ABRL_OK;
    report_call call = {session, record};
    return abrl_session_call(session, report_body, &call);
}
