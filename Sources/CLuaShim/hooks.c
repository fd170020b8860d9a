/* The hooks a request runs besides choose and on_download: the abandonment check during a
   download and on_wait after a full-buffer wait; each reuses its table from the registry. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct abandon_call {
    abrl_session *session;
    const abrl_progress *progress;
    long long level;
    int has_level;
    abrl_recheck recheck;
} abandon_call;

/* Records a result error, named by the line where check_abandon is defined: a returned value
   has no line of its own. */
static void result_error(lua_State *L, const abandon_call *call, const char *what) {
    abrl_engine *engine = abrl_engine_of(L);
    engine->pending_code = ABRL_ERR_RESULT;
    lua_Debug ar;
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->check_abandon);
    if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0) {
        abrl_set_message(engine, "%s:%d: check_abandon %s", ar.short_src, ar.linedefined, what);
    } else {
        abrl_set_message(engine, "check_abandon %s", what);
    }
}

/* Reads the recheck table at `index` with raw gets, so no script code runs: only the fields
   elapsed_s and projected_s, each a number that is not NaN. */
static void read_recheck(lua_State *L, int index, abandon_call *call) {
    char what[160], rendered[64];
    if (lua_type(L, index) != LUA_TTABLE) {
        abrl_render_value(L, index, rendered, sizeof rendered);
        snprintf(what, sizeof what, "returned %s as its second result; expected nil or a recheck table", rendered);
        result_error(L, call, what);
        return;
    }
    lua_pushnil(L);
    while (lua_next(L, index)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        double *field = NULL;
        if (key != NULL && strcmp(key, "elapsed_s") == 0) field = &call->recheck.elapsed_s;
        if (key != NULL && strcmp(key, "projected_s") == 0) field = &call->recheck.projected_s;
        if (field == NULL) {
            if (key != NULL) {
                snprintf(what, sizeof what, "returned a recheck with field '%.40s'; expected elapsed_s or projected_s", key);
            } else {
                abrl_render_value(L, -2, rendered, sizeof rendered);
                snprintf(what, sizeof what, "returned a recheck with key %s; expected elapsed_s or projected_s", rendered);
            }
            result_error(L, call, what);
            return;
        }
        int is_number = 0;
        double value = lua_tonumberx(L, -1, &is_number);
        if (lua_type(L, -1) != LUA_TNUMBER || !is_number || value != value) {
            abrl_render_value(L, -1, rendered, sizeof rendered);
            snprintf(what, sizeof what, "returned a recheck with %s = %s; expected a number of seconds", key, rendered);
            result_error(L, call, what);
            return;
        }
        *field = value;
        lua_pop(L, 1);
    }
}

static int abandon_body(lua_State *L) {
    abandon_call *call = lua_touserdata(L, 1);
    const abrl_progress *progress = call->progress;
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->refs.progress);
    int table = lua_gettop(L);
    abrl_fill(L, table, ABRL_TABLE_PROGRESS, ABRL_GROUP_PROGRESS, progress);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->check_abandon);
    lua_pushvalue(L, table);
    lua_call(L, 1, 2);
    int answer = table + 1;
    if (lua_isnil(L, answer) || (lua_isboolean(L, answer) && !lua_toboolean(L, answer))) {
        if (!lua_isnil(L, answer + 1)) read_recheck(L, answer + 1, call);
        return 0;
    }
    abrl_engine *engine = abrl_engine_of(L);
    char rendered[64], what[160];
    if (abrl_read_level(L, answer, call->session, &call->level)) {
        if (call->level < progress->level) {
            call->has_level = 1;
            return 0;
        }
        snprintf(rendered, sizeof rendered, "%lld", call->level + 1);
    } else {
        snprintf(rendered, sizeof rendered, "%s", engine->message);
    }
    snprintf(what, sizeof what, "returned %s; expected nil or a level below %lld", rendered, progress->level + 1);
    result_error(L, call, what);
    return 0;
}

int abrl_session_check_abandon(abrl_session *session, const abrl_progress *progress,
                               long long *level, int *has_level, abrl_recheck *recheck) {
    *has_level = 0;
    recheck->elapsed_s = -HUGE_VAL;
    recheck->projected_s = -HUGE_VAL;
    if (session->check_abandon == LUA_NOREF) return ABRL_OK;
    abandon_call call = {session, progress, 0, 0, {-HUGE_VAL, -HUGE_VAL}};
    int code = abrl_session_call(session, abandon_body, &call);
    if (code != ABRL_OK) return code;
    if (call.has_level) {
        *level = call.level;
        *has_level = 1;
    } else {
        *recheck = call.recheck;
    }
    return code;
}

typedef struct source_call {
    abrl_session *session;
    long long line;
} source_call;

static int source_body(lua_State *L) {
    source_call *call = lua_touserdata(L, 1);
    lua_Debug ar;
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->check_abandon);
    if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0) {
        abrl_set_message(abrl_engine_of(L), "%s", ar.short_src);
        call->line = ar.linedefined;
    }
    return 0;
}

int abrl_session_check_abandon_source(abrl_session *session, long long *line) {
    *line = 0;
    if (session->check_abandon == LUA_NOREF) return ABRL_OK;
    source_call call = {session, 0};
    int code = abrl_session_call(session, source_body, &call);
    if (code == ABRL_OK) *line = call.line;
    return code;
}

typedef struct wait_call {
    abrl_session *session;
    abrl_wait wait;
} wait_call;

static int wait_body(lua_State *L) {
    wait_call *call = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->refs.wait);
    int table = lua_gettop(L);
    abrl_fill(L, table, ABRL_TABLE_WAIT, ABRL_GROUP_WAIT, &call->wait);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->on_wait);
    lua_pushvalue(L, table);
    lua_call(L, 1, 0);
    return 0;
}

int abrl_session_on_wait(abrl_session *session, double wait_s, double buffer_s) {
    if (session->on_wait == LUA_NOREF) return ABRL_OK;
    wait_call call = {session, {wait_s, buffer_s}};
    return abrl_session_call(session, wait_body, &call);
}

int abrl_session_updates_playback(const abrl_session *session) {
    return session->on_playback != LUA_NOREF;
}

typedef struct playback_call {
    abrl_session *session;
    const abrl_playback *playback;
    double rate;
} playback_call;

/* on_playback's result: nil keeps the rate, a number in 0.5…2 (dash.js's limits,
   LiveSettings.playbackRateRange) sets it; anything else is an error named by the line where
   on_playback is defined, as a returned value has no line of its own. */
static int playback_body(lua_State *L) {
    playback_call *call = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->refs.playback);
    int table = lua_gettop(L);
    abrl_fill(L, table, ABRL_TABLE_PLAYBACK, ABRL_GROUP_PLAYBACK, call->playback);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->on_playback);
    lua_pushvalue(L, table);
    lua_call(L, 1, 1);
    abrl_engine *engine = abrl_engine_of(L);
    abrl_read_optional_result(L, table + 1, 0.5, 2, &call->rate, "a playback rate of %s; rates are nil or 0.5…2");
    if (engine->pending_code == ABRL_OK) return 0;
    char what[200];
    snprintf(what, sizeof what, "%s", engine->message);
    lua_Debug ar;
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->on_playback);
    if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0) {
        abrl_set_message(engine, "%s:%d: on_playback returned %s", ar.short_src, ar.linedefined, what);
    } else {
        abrl_set_message(engine, "on_playback returned %s", what);
    }
    return 0;
}

int abrl_session_on_playback(abrl_session *session, const abrl_playback *playback, double *rate, int *has_rate) {
    *has_rate = 0;
    if (session->on_playback == LUA_NOREF) return ABRL_OK;
    playback_call call = {session, playback, NAN};
    int code = abrl_session_call(session, playback_body, &call);
    if (code == ABRL_OK && call.rate == call.rate) {
        *rate = call.rate;
        *has_rate = 1;
    }
    return code;
}
