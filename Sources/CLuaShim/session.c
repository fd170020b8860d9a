/* Sessions: each runs the compiled chunk afresh in its own environment, so nothing a
   session leaves behind (globals, upvalues, random state) reaches the next one. */
#include "internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct open_call {
    int chunk;
    const abrl_session_info *info;
    abrl_session *session;
} open_call;

/* A required function field, or a script error naming it. */
static int function_ref(lua_State *L, int module, const char *key) {
    if (lua_getfield(L, module, key) != LUA_TFUNCTION) {
        return abrl_script_error(L, ABRL_ERR_SCRIPT, "%s must be a function, not a %s value", key, luaL_typename(L, -1));
    }
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

/* The optional on_download, or LUA_NOREF. */
static int optional_ref(lua_State *L, int module, const char *key) {
    int type = lua_getfield(L, module, key);
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        return LUA_NOREF;
    }
    if (type != LUA_TFUNCTION) {
        return abrl_script_error(L, ABRL_ERR_SCRIPT, "%s must be a function, not a %s value", key, lua_typename(L, type));
    }
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

/* Writes the effective params into the script's params table (made when absent) and leaves it on the stack. */
static void push_params(lua_State *L, int module, const abrl_session_info *info) {
    int type = lua_getfield(L, module, "params");
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        lua_createtable(L, 0, (int)info->param_count);
        lua_pushvalue(L, -1);
        lua_setfield(L, module, "params");
    } else if (type != LUA_TTABLE) {
        abrl_script_error(L, ABRL_ERR_SCRIPT, "params must be a table, not a %s value", lua_typename(L, type));
    }
    int params = lua_gettop(L);
    for (size_t i = 0; i < info->param_count; i++) {
        const abrl_param *param = &info->params[i];
        switch (param->type) {
        case ABRL_PARAM_BOOLEAN: lua_pushboolean(L, param->boolean); break;
        case ABRL_PARAM_INTEGER: lua_pushinteger(L, param->integer); break;
        case ABRL_PARAM_STRING: lua_pushlstring(L, info->param_text + param->string_offset, param->string_length); break;
        default: lua_pushnumber(L, param->number); break;
        }
        lua_setfield(L, params, info->param_text + param->key_offset);
    }
}

/* The table setup(session) sees, or (`table_id` ABRL_TABLE_VIDEO) the one check(video) sees,
   which leaves out the trace and the seed, as that answer must not depend on a session. */
static void push_setting_table(lua_State *L, const abrl_session_info *info, int params, int table_id) {
    lua_createtable(L, 0, 10);
    abrl_setting setting;
    abrl_setting_init(&setting, info);
    setting.params = params;
    abrl_fill(L, -1, table_id, ABRL_GROUP_SETTING, &setting);
}

/* Runs the script's chunk in a fresh environment and pushes the table it returns, then that
 * table's effective parameters; returns the table's index (the parameters are just above it). */
static int push_module(lua_State *L, int chunk, const abrl_session_info *info) {
    abrl_push_env(L, info->seed, info->host);
    int env = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, chunk);
    lua_pushvalue(L, env);
    lua_call(L, 1, 1);
    int module = lua_gettop(L);
    if (!lua_istable(L, module)) {
        abrl_script_error(L, ABRL_ERR_SCRIPT, "the script must return a table, not a %s value", luaL_typename(L, module));
    }
    push_params(L, module, info);
    return module;
}

static int open_body(lua_State *L) {
    open_call *call = lua_touserdata(L, 1);
    const abrl_session_info *info = call->info;
    abrl_session *session = call->session;
    int module = push_module(L, call->chunk, info);
    int params = module + 1;
    int setup = lua_getfield(L, module, "setup");
    if (setup == LUA_TFUNCTION) {
        push_setting_table(L, info, params, ABRL_TABLE_SESSION);
        lua_call(L, 1, 0);
    } else if (setup != LUA_TNIL) {
        return abrl_script_error(L, ABRL_ERR_SCRIPT, "setup must be a function, not a %s value", lua_typename(L, setup));
    } else {
        lua_pop(L, 1);
    }
    if (info->form == ABRL_FORM_SEED) {
        session->seed_functions[ABRL_SEED_INITIAL] = function_ref(L, module, "initial_bitrate");
        session->seed_functions[ABRL_SEED_UPGRADE] = function_ref(L, module, "should_upgrade");
        session->seed_functions[ABRL_SEED_DOWNGRADE] = function_ref(L, module, "should_downgrade");
    } else {
        session->choose = function_ref(L, module, "choose");
    }
    session->on_download = optional_ref(L, module, "on_download");
    session->check_abandon = optional_ref(L, module, "check_abandon");
    session->on_wait = optional_ref(L, module, "on_wait");
    session->on_playback = optional_ref(L, module, "on_playback");
    abrl_context_create(L, info, &session->refs);
    return 0;
}

int abrl_session_open(abrl_engine *engine, int chunk_ref, const abrl_session_info *info,
                      abrl_session **out) {
    *out = NULL;
    abrl_session *session = calloc(1, sizeof *session);
    long long *levels = calloc(info->level_count > 0 ? (size_t)info->level_count : 1, sizeof *levels);
    if (session == NULL || levels == NULL) {
        free(session);
        free(levels);
        abrl_set_message(engine, "not enough memory");
        return ABRL_ERR_RUNTIME;
    }
    if (info->level_count > 0) memcpy(levels, info->levels_bps, (size_t)info->level_count * sizeof *levels);
    session->engine = engine;
    session->form = info->form;
    session->level_count = info->level_count;
    session->levels_bps = levels;
    session->choose = session->on_download = session->check_abandon = session->on_wait = session->on_playback = LUA_NOREF;
    for (int i = 0; i < 3; i++) session->seed_functions[i] = LUA_NOREF;
    abrl_context_refs none = {LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF, LUA_NOREF};
    session->refs = none;
    long long per_call = engine->limits.instructions_per_call;
    session->instructions_left = per_call > LLONG_MAX / ABRL_SESSION_CALL_BUDGETS ? LLONG_MAX : per_call * ABRL_SESSION_CALL_BUDGETS;
    open_call call = {chunk_ref, info, session};
    int code = abrl_session_call(session, open_body, &call);
    if (code != ABRL_OK) {
        abrl_session_close(session);
        return code;
    }
    *out = session;
    return ABRL_OK;
}

/* Releasing references neither allocates nor calls metamethods, so it cannot raise. */
void abrl_session_close(abrl_session *session) {
    if (session == NULL) return;
    lua_State *L = session->engine->L;
    int refs[] = {
        session->choose, session->on_download, session->check_abandon, session->on_wait, session->on_playback,
        session->refs.progress, session->refs.wait, session->refs.playback,
        session->seed_functions[0], session->seed_functions[1], session->seed_functions[2],
        session->refs.ctx, session->refs.throughputs, session->refs.download_times,
        session->refs.sizes, session->refs.report, session->refs.levels_bps};
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) luaL_unref(L, LUA_REGISTRYINDEX, refs[i]);
    free(session->levels_bps);
    free(session);
}

void abrl_session_abandon(abrl_session *session) {
    if (session == NULL) return;
    free(session->levels_bps);
    free(session);
}

typedef struct check_call {
    int chunk;
    const abrl_session_info *info;
    int *fits;
} check_call;

/* What check(video) sees: the setting table, strict. */
static void push_video_table(lua_State *L, const abrl_session_info *info, int params) {
    push_setting_table(L, info, params, ABRL_TABLE_VIDEO);
    abrl_set_strict(L, -1, ABRL_TABLE_VIDEO);
}

static int check_body(lua_State *L) {
    check_call *call = lua_touserdata(L, 1);
    const abrl_session_info *info = call->info;
    int module = push_module(L, call->chunk, info);
    int params = module + 1;
    int check = lua_getfield(L, module, "check");
    if (check == LUA_TNIL) {
        *call->fits = 1;
        return 0;
    }
    if (check != LUA_TFUNCTION) {
        return abrl_script_error(L, ABRL_ERR_SCRIPT, "check must be a function, not a %s value", lua_typename(L, check));
    }
    push_video_table(L, info, params);
    lua_call(L, 1, 1);
    int type = lua_type(L, -1);
    if (type == LUA_TNIL || (type == LUA_TBOOLEAN && lua_toboolean(L, -1))) {
        *call->fits = 1;
    } else if (type == LUA_TSTRING) {
        *call->fits = 0;
        abrl_set_message(abrl_engine_of(L), "%s", lua_tostring(L, -1));
    } else {
        char rendered[64];
        abrl_render_value(L, -1, rendered, sizeof rendered);
        return abrl_script_error(L, ABRL_ERR_SCRIPT,
                                 "check returned %s; it returns nil (or true) when the strategy can play the video, else a string saying why not",
                                 rendered);
    }
    return 0;
}

int abrl_script_check(abrl_engine *engine, int chunk_ref, const abrl_session_info *info, int *fits) {
    *fits = 1;
    check_call call = {chunk_ref, info, fits};
    return abrl_call(engine, check_body, &call);
}
