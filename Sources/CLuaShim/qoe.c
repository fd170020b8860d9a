/* QoE models written in Lua: like strategies, each session runs the compiled chunk afresh in its
   own sandboxed environment; qoe(segment, session) is then called once per segment, each call
   under the engine's per-call limits. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct abrl_qoe {
    abrl_engine *engine;
    int function;  /* registry ref of qoe */
    int segment;   /* registry ref of the segment table, refilled per call */
    int session;   /* registry ref of the session table */
};

/* Runs the chunk in a fresh environment (with require when `host` is given) and leaves its
   module table on the stack, after checking that qoe is a function. */
static int push_module(lua_State *L, int chunk, lua_Integer seed, const abrl_host *host) {
    abrl_push_env(L, seed, host);
    lua_rawgeti(L, LUA_REGISTRYINDEX, chunk);
    lua_pushvalue(L, -2);
    lua_call(L, 1, 1);
    int module = lua_gettop(L);
    if (!lua_istable(L, module)) {
        return abrl_script_error(L, ABRL_ERR_SCRIPT, "the QoE script must return a table, not a %s value", luaL_typename(L, module));
    }
    int type = lua_getfield(L, module, "qoe");
    lua_pop(L, 1);
    if (type == LUA_TNIL) return abrl_script_error(L, ABRL_ERR_SCRIPT, "the QoE script defines no qoe function");
    if (type != LUA_TFUNCTION) {
        return abrl_script_error(L, ABRL_ERR_SCRIPT, "qoe must be a function, not a %s value", lua_typename(L, type));
    }
    return module;
}

static char *optional_text(lua_State *L, int module, const char *key) {
    char *copy = NULL;
    int type = lua_getfield(L, module, key);
    if (type == LUA_TSTRING) {
        size_t length;
        const char *text = lua_tolstring(L, -1, &length);
        copy = malloc(length + 1);
        if (copy == NULL) luaL_error(L, "not enough memory");
        memcpy(copy, text, length + 1);
    } else if (type != LUA_TNIL) {
        abrl_script_error(L, ABRL_ERR_SCRIPT, "%s must be a string, not a %s value", key, luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    return copy;
}

typedef struct inspect_call {
    int chunk;
    const abrl_host *host;
    abrl_inspection *result;
} inspect_call;

static int inspect_body(lua_State *L) {
    inspect_call *call = lua_touserdata(L, 1);
    call->result = calloc(1, sizeof *call->result);
    if (call->result == NULL) return luaL_error(L, "not enough memory");
    int module = push_module(L, call->chunk, 0, call->host);
    call->result->name = optional_text(L, module, "name");
    call->result->description = optional_text(L, module, "description");
    return 0;
}

int abrl_qoe_inspect(abrl_engine *engine, int chunk_ref, const abrl_host *host, abrl_inspection **out) {
    inspect_call call = {chunk_ref, host, NULL};
    int code = abrl_call(engine, inspect_body, &call);
    if (code != ABRL_OK) {
        abrl_inspection_free(call.result);
        *out = NULL;
        return code;
    }
    *out = call.result;
    return ABRL_OK;
}

typedef struct open_call {
    int chunk;
    const abrl_host *host;
    const abrl_qoe_session *info;
    abrl_qoe *qoe;
} open_call;

static void push_session(lua_State *L, const abrl_qoe_session *info) {
    lua_createtable(L, 0, 8);
    abrl_fill(L, -1, ABRL_TABLE_QOE_SESSION, ABRL_GROUP_QOE_SESSION, info);
}

static int open_body(lua_State *L) {
    open_call *call = lua_touserdata(L, 1);
    int module = push_module(L, call->chunk, call->info->seed, call->host);
    lua_getfield(L, module, "qoe");
    call->qoe->function = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 0, 18);
    call->qoe->segment = luaL_ref(L, LUA_REGISTRYINDEX);
    push_session(L, call->info);
    call->qoe->session = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

int abrl_qoe_open(abrl_engine *engine, int chunk_ref, const abrl_host *host, const abrl_qoe_session *session,
                  abrl_qoe **out) {
    *out = NULL;
    abrl_qoe *qoe = calloc(1, sizeof *qoe);
    if (qoe == NULL) {
        abrl_set_message(engine, "not enough memory");
        return ABRL_ERR_RUNTIME;
    }
    qoe->engine = engine;
    qoe->function = qoe->segment = qoe->session = LUA_NOREF;
    open_call call = {chunk_ref, host, session, qoe};
    int code = abrl_call(engine, open_body, &call);
    if (code != ABRL_OK) {
        abrl_qoe_close(qoe);
        return code;
    }
    *out = qoe;
    return ABRL_OK;
}

typedef struct score_call {
    abrl_qoe *qoe;
    const abrl_qoe_segment *segment;
    double score;
} score_call;

static int score_body(lua_State *L) {
    score_call *call = lua_touserdata(L, 1);
    abrl_qoe *qoe = call->qoe;
    lua_rawgeti(L, LUA_REGISTRYINDEX, qoe->function);
    lua_rawgeti(L, LUA_REGISTRYINDEX, qoe->segment);
    abrl_fill(L, -1, ABRL_TABLE_QOE_SEGMENT, ABRL_GROUP_QOE_SEGMENT, call->segment);
    lua_rawgeti(L, LUA_REGISTRYINDEX, qoe->session);
    lua_call(L, 2, 1);
    int is_number = 0;
    double score = lua_type(L, -1) == LUA_TNUMBER ? (double)lua_tonumberx(L, -1, &is_number) : 0;
    if (is_number && isfinite(score)) {
        call->score = score;
        return 0;
    }
    abrl_engine *engine = abrl_engine_of(L);
    abrl_render_value(L, -1, engine->message, sizeof engine->message);
    engine->pending_code = ABRL_ERR_RESULT;
    return 0;
}

int abrl_qoe_score(abrl_qoe *qoe, const abrl_qoe_segment *segment, double *score) {
    score_call call = {qoe, segment, 0};
    int code = abrl_call(qoe->engine, score_body, &call);
    if (code == ABRL_OK) *score = call.score;
    return code;
}

/* Releasing references neither allocates nor calls metamethods, so it cannot raise. */
void abrl_qoe_close(abrl_qoe *qoe) {
    if (qoe == NULL) return;
    lua_State *L = qoe->engine->L;
    luaL_unref(L, LUA_REGISTRYINDEX, qoe->function);
    luaL_unref(L, LUA_REGISTRYINDEX, qoe->segment);
    luaL_unref(L, LUA_REGISTRYINDEX, qoe->session);
    free(qoe);
}
