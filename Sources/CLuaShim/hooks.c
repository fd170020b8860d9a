/* The hooks a request runs besides choose and on_download: the abandonment check during a
   download and on_wait after a full-buffer wait; each reuses its table from the registry. */
#include "internal.h"

#include <stdio.h>

int abrl_session_checks_abandonment(const abrl_session *session) {
    return session->check_abandon != LUA_NOREF;
}

typedef struct abandon_call {
    abrl_session *session;
    const abrl_progress *progress;
    long long level;
    int has_level;
} abandon_call;

static int abandon_body(lua_State *L) {
    abandon_call *call = lua_touserdata(L, 1);
    const abrl_progress *progress = call->progress;
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->refs.progress);
    int table = lua_gettop(L);
    abrl_set_integer(L, table, "segment_index", progress->segment_index + 1);
    abrl_set_integer(L, table, "level", progress->level + 1);
    abrl_set_number(L, table, "size_bytes", progress->size_bytes);
    abrl_set_number(L, table, "received_bytes", progress->received_bytes);
    abrl_set_number(L, table, "elapsed_s", progress->elapsed_s);
    abrl_set_number(L, table, "ttfb_s", progress->ttfb_s);
    abrl_set_number(L, table, "buffer_s", progress->buffer_s);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->check_abandon);
    lua_pushvalue(L, table);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1) || (lua_isboolean(L, -1) && !lua_toboolean(L, -1))) return 0;
    abrl_engine *engine = abrl_engine_of(L);
    char rendered[64];
    if (abrl_read_level(L, -1, call->session, &call->level)) {
        if (call->level < progress->level) {
            call->has_level = 1;
            return 0;
        }
        snprintf(rendered, sizeof rendered, "%lld", call->level + 1);
        engine->pending_code = ABRL_ERR_RESULT;
    } else {
        snprintf(rendered, sizeof rendered, "%s", engine->message);
    }
    /* Name the line where check_abandon is defined: a returned value has no line of its own. */
    lua_Debug ar;
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->check_abandon);
    if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0) {
        abrl_set_message(engine, "%s:%d: check_abandon returned %s; expected nil or a level below %lld",
                         ar.short_src, ar.linedefined, rendered, progress->level + 1);
    } else {
        abrl_set_message(engine, "check_abandon returned %s; expected nil or a level below %lld", rendered, progress->level + 1);
    }
    return 0;
}

int abrl_session_check_abandon(abrl_session *session, const abrl_progress *progress,
                               long long *level, int *has_level) {
    *has_level = 0;
    if (session->check_abandon == LUA_NOREF) return ABRL_OK;
    abandon_call call = {session, progress, 0, 0};
    int code = abrl_call(session->engine, abandon_body, &call);
    if (code == ABRL_OK && call.has_level) {
        *level = call.level;
        *has_level = 1;
    }
    return code;
}

typedef struct wait_call {
    abrl_session *session;
    double wait_s, buffer_s;
} wait_call;

static int wait_body(lua_State *L) {
    wait_call *call = lua_touserdata(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->refs.wait);
    int table = lua_gettop(L);
    abrl_set_number(L, table, "wait_s", call->wait_s);
    abrl_set_number(L, table, "buffer_s", call->buffer_s);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->session->on_wait);
    lua_pushvalue(L, table);
    lua_call(L, 1, 0);
    return 0;
}

int abrl_session_on_wait(abrl_session *session, double wait_s, double buffer_s) {
    if (session->on_wait == LUA_NOREF) return ABRL_OK;
    wait_call call = {session, wait_s, buffer_s};
    return abrl_call(session->engine, wait_body, &call);
}
