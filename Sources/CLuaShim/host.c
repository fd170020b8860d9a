/* What the host adds to a session: `require`, which runs modules of the script's folder in the
   session's own environment, `abrlab.model`, whose forward pass runs in the host, and
   ctx:mpc_search, whose search runs in the host. Files are read only by the host; this side
   compiles text and checks arguments and shapes. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char abrl_key_modules = 0;
static const char *const model_type = "abrlab.model";

/* Marks a module whose top level is running, so a cycle is an error instead of a deep recursion. */
static const char loading_mark = 0;

/* A require name: names of letters, digits and _ joined by single dots (`lib.helpers`). */
static int is_module_name(const char *name, size_t length) {
    if (length == 0 || length > ABRL_MODULE_NAME_MAX) return 0;
    char previous = '.';
    for (size_t i = 0; i < length; i++) {
        char c = name[i];
        if (c == '.') {
            if (previous == '.') return 0;
        } else if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
            return 0;
        }
        previous = c;
    }
    return previous != '.';
}

/* Pushes the compiled module, compiling its text once per engine (keyed by label and text). */
static void push_module_function(lua_State *L, const char *source, size_t length, const char *label) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &abrl_key_modules);
    int cache = lua_gettop(L);
    luaL_Buffer key;
    luaL_buffinit(L, &key);
    luaL_addstring(&key, label);
    luaL_addchar(&key, '\0');
    luaL_addlstring(&key, source, length);
    luaL_pushresult(&key);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, cache) == LUA_TFUNCTION) {
        lua_replace(L, cache);
        lua_settop(L, cache);
        return;
    }
    lua_pop(L, 1);
    char chunk_name[ABRL_MODULE_NAME_MAX + 8];
    snprintf(chunk_name, sizeof chunk_name, "=%s", label);
    if (luaL_loadbufferx(L, source, length, chunk_name, "t") != LUA_OK) lua_error(L);
    lua_pushvalue(L, -1);
    lua_insert(L, -3);
    lua_rawset(L, cache);
    lua_replace(L, cache);
}

/* require(name): upvalues are the session environment, its loaded table and the host. */
static int sandbox_require(lua_State *L) {
    size_t length;
    const char *name = luaL_checklstring(L, 1, &length);
    if (!is_module_name(name, length)) {
        char shown[80];
        snprintf(shown, sizeof shown, "%.64s%s", name, length > 64 ? "…" : "");
        return luaL_error(L, "module name '%s' is not allowed: use names of letters, digits and _ joined by dots (lib.helpers), at most %d characters",
                          shown, ABRL_MODULE_NAME_MAX);
    }
    lua_settop(L, 1);
    int loaded = lua_upvalueindex(2);
    lua_pushvalue(L, 1);
    int type = lua_rawget(L, loaded);
    if (type == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == &loading_mark) {
        return luaL_error(L, "module '%s' is required while it loads (a cyclic require)", name);
    }
    if (type != LUA_TNIL) return 1;
    lua_pop(L, 1);
    const abrl_host *host = lua_touserdata(L, lua_upvalueindex(3));
    const char *source = NULL, *label = NULL;
    size_t source_length = 0;
    char message[512];
    message[0] = '\0';
    if (host->read_module(host->context, name, &source, &source_length, &label, message, sizeof message) != 0) {
        return luaL_error(L, "%s", message);
    }
    lua_pushvalue(L, 1);
    lua_pushlightuserdata(L, (void *)&loading_mark);
    lua_rawset(L, loaded);
    push_module_function(L, source, source_length, label);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    int status = lua_pcall(L, 2, 1, 0);
    if (status != LUA_OK) {
        /* Forget the mark so the module can be required again, then pass the error on. */
        lua_pushvalue(L, 1);
        lua_pushnil(L);
        lua_rawset(L, loaded);
        return lua_error(L);
    }
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -2);
    lua_rawset(L, loaded);
    return 1;
}

typedef struct model_handle {
    abrl_model_info info;
    void (*forward)(const void *model, const double *input, double *output);
} model_handle;

/* abrlab.model(path): the host loads and checks the file; the handle keeps its shape. */
static int sandbox_model(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    const abrl_host *host = lua_touserdata(L, lua_upvalueindex(1));
    abrl_model_info info;
    memset(&info, 0, sizeof info);
    char message[1024];
    message[0] = '\0';
    if (host->load_model(host->context, path, &info, message, sizeof message) != 0) return luaL_error(L, "%s", message);
    model_handle *handle = lua_newuserdatauv(L, sizeof *handle, 0);
    handle->info = info;
    handle->forward = host->forward;
    luaL_setmetatable(L, model_type);
    return 1;
}

static int shape_error(lua_State *L, const abrl_model_info *info, const char *detail) {
    char message[256];
    snprintf(message, sizeof message, "forward: the state must be a table of %lld rows of %lld numbers; %s",
             info->rows, info->columns, detail);
    return luaL_error(L, "%s", message);
}

/* States up to this many numbers (outputs included) are read into a stack buffer. */
#define ABRL_FORWARD_STACK 1024

/* net:forward(rows [, into]): reads the state without metamethods, charges the model's fixed
   cost and returns the outputs in `into` when given (reused, no allocation), else a new table. */
static int model_forward(lua_State *L) {
    model_handle *handle = luaL_checkudata(L, 1, model_type);
    const abrl_model_info *info = &handle->info;
    char detail[160];
    if (!lua_istable(L, 2)) {
        snprintf(detail, sizeof detail, "got a %s value", luaL_typename(L, 2));
        return shape_error(L, info, detail);
    }
    abrl_charge(L, (uint64_t)info->cost);
    lua_Unsigned rows = lua_rawlen(L, 2);
    if (rows != (lua_Unsigned)info->rows) {
        snprintf(detail, sizeof detail, "it has %llu rows", (unsigned long long)rows);
        return shape_error(L, info, detail);
    }
    int into = lua_istable(L, 3) ? 3 : 0;
    if (!into && !lua_isnoneornil(L, 3)) return luaL_argerror(L, 3, "a table to fill or nil expected");
    size_t cells = (size_t)info->rows * (size_t)info->columns;
    size_t needed = cells + (size_t)info->outputs;
    double stack[ABRL_FORWARD_STACK];
    double *input = needed <= ABRL_FORWARD_STACK ? stack : lua_newuserdatauv(L, needed * sizeof(double), 0);
    double *output = input + cells;
    for (long long r = 0; r < info->rows; r++) {
        if (lua_rawgeti(L, 2, r + 1) != LUA_TTABLE) {
            snprintf(detail, sizeof detail, "row %lld is a %s value", r + 1, luaL_typename(L, -1));
            return shape_error(L, info, detail);
        }
        lua_Unsigned columns = lua_rawlen(L, -1);
        if (columns != (lua_Unsigned)info->columns) {
            snprintf(detail, sizeof detail, "row %lld has %llu values", r + 1, (unsigned long long)columns);
            return shape_error(L, info, detail);
        }
        for (long long c = 0; c < info->columns; c++) {
            lua_rawgeti(L, -1, c + 1);
            int is_number = 0;
            double value = (double)lua_tonumberx(L, -1, &is_number);
            if (!is_number || !isfinite(value)) {
                char rendered[64];
                abrl_render_value(L, -1, rendered, sizeof rendered);
                snprintf(detail, sizeof detail, "row %lld, column %lld is %s", r + 1, c + 1, rendered);
                return shape_error(L, info, detail);
            }
            input[r * info->columns + c] = value;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    handle->forward(info->model, input, output);
    for (long long i = 0; i < info->outputs; i++) {
        /* Finite weights can still overflow float32 on some state; a NaN must not pass as a choice. */
        if (!(output[i] == output[i]) || output[i] < 0 || output[i] > 1) {
            char rendered[32];
            abrl_format_number(output[i], rendered, sizeof rendered);
            return luaL_error(L, "forward: the model's output %I is not a probability (%s); its weights overflow on this state",
                              (lua_Integer)(i + 1), rendered);
        }
    }
    if (into) {
        lua_pushvalue(L, into);
    } else {
        lua_createtable(L, (int)info->outputs, 0);
    }
    for (long long i = 0; i < info->outputs; i++) {
        lua_pushnumber(L, output[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* net.rows, net.columns and net.outputs describe the shape, net.actions what an output means;
   net.forward (or net:forward) evaluates. */
static int model_index(lua_State *L) {
    model_handle *handle = luaL_checkudata(L, 1, model_type);
    const char *key = lua_tostring(L, 2);
    if (key == NULL) return 0;
    if (strcmp(key, "forward") == 0) {
        lua_pushcfunction(L, model_forward);
    } else if (strcmp(key, "rows") == 0) {
        lua_pushinteger(L, (lua_Integer)handle->info.rows);
    } else if (strcmp(key, "columns") == 0) {
        lua_pushinteger(L, (lua_Integer)handle->info.columns);
    } else if (strcmp(key, "outputs") == 0) {
        lua_pushinteger(L, (lua_Integer)handle->info.outputs);
    } else if (strcmp(key, "actions") == 0) {
        lua_pushstring(L, handle->info.steps ? "steps" : "levels");
    } else {
        lua_pushnil(L);
    }
    return 1;
}

static int model_tostring(lua_State *L) {
    model_handle *handle = luaL_checkudata(L, 1, model_type);
    lua_pushfstring(L, "abrlab.model (%I×%I → %I)", (lua_Integer)handle->info.rows,
                    (lua_Integer)handle->info.columns, (lua_Integer)handle->info.outputs);
    return 1;
}

void abrl_host_install(lua_State *L) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &abrl_key_modules);
    luaL_newmetatable(L, model_type);
    lua_pushcfunction(L, model_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, model_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
}

void abrl_env_add_host(lua_State *L, int env, const abrl_host *host) {
    env = lua_absindex(L, env);
    abrl_host *copy = lua_newuserdatauv(L, sizeof *copy, 0);
    *copy = *host;
    int host_value = lua_gettop(L);
    lua_pushvalue(L, env);
    lua_newtable(L);
    lua_pushvalue(L, host_value);
    lua_pushcclosure(L, sandbox_require, 3);
    lua_setfield(L, env, "require");
    if (host->load_model != NULL && host->forward != NULL) {
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, host_value);
        lua_pushcclosure(L, sandbox_model, 1);
        lua_setfield(L, -2, "model");
        lua_setfield(L, env, "abrlab");
    }
    lua_pop(L, 1);
}

enum { MPC_MAX_HORIZON = 10, MPC_MAX_LEVELS = 64, MPC_UNITS_PER_NODE = 32 };

static lua_Integer field_integer(lua_State *L, int table, const char *key) {
    lua_getfield(L, table, key);
    lua_Integer value = luaL_checkinteger(L, -1);
    lua_pop(L, 1);
    return value;
}

/* ctx:mpc_search(bandwidth_MBps, horizon, lookahead_offset, rebuffer_penalty, smoothness_penalty)
   → the 1-based first level of the best sequence, and its reward. Reads segment_index,
   segment_count, buffer_s and last_level from ctx. Each node the search visits costs
   MPC_UNITS_PER_NODE budget units: the host stops at the node that would overspend what the
   call has left, and charging what it visited then raises the budget error. Upvalues: the
   video and the host's search. */
static int mpc_search_call(lua_State *L) {
    const abrl_video *video = lua_touserdata(L, lua_upvalueindex(1));
    void (*const *search)(const abrl_mpc_question *, abrl_mpc_answer *) = lua_touserdata(L, lua_upvalueindex(2));
    if (video->level_count > MPC_MAX_LEVELS) return luaL_error(L, "mpc_search handles ladders of up to %d levels", MPC_MAX_LEVELS);
    luaL_checktype(L, 1, LUA_TTABLE);
    double bandwidth = luaL_checknumber(L, 2);
    lua_Integer horizon = luaL_checkinteger(L, 3);
    lua_Integer offset = luaL_optinteger(L, 4, 0);
    luaL_argcheck(L, bandwidth > 0, 2, "bandwidth must be positive (MB/s)");
    luaL_argcheck(L, horizon >= 1 && horizon <= MPC_MAX_HORIZON, 3, "horizon must be 1…10");
    lua_Integer segment = field_integer(L, 1, "segment_index");
    lua_Integer count = field_integer(L, 1, "segment_count");
    lua_getfield(L, 1, "buffer_s");
    double buffer = luaL_checknumber(L, -1);
    lua_getfield(L, 1, "last_level");
    lua_Integer last = luaL_checkinteger(L, -1);
    lua_pop(L, 2);
    luaL_argcheck(L, last >= 1 && last <= video->level_count, 1, "ctx.last_level out of range");
    double rebuffer_penalty = luaL_optnumber(L, 5, 4.3);
    double smoothness_penalty = luaL_optnumber(L, 6, 1);
    if (*search == NULL) return luaL_error(L, "mpc_search is not available here");

    abrl_mpc_question question;
    question.levels_kbps = abrl_video_kbps(video);
    question.sizes_bytes = video->cells;
    question.level_count = video->level_count;
    question.size_segment_count = video->segment_count;
    /* The first segment's 0-based index; any index outside the video reads size 0, so one
       past either end (-10 is past the start for every depth) stands for all beyond it. */
    lua_Integer first;
    if (__builtin_add_overflow(segment, offset, &first) || __builtin_sub_overflow(first, 1, &first)) {
        first = offset < 0 ? -MPC_MAX_HORIZON : video->segment_count;
    }
    if (first > video->segment_count) first = video->segment_count;
    if (first < -MPC_MAX_HORIZON) first = -MPC_MAX_HORIZON;
    question.first_segment = first;
    question.depth = horizon < count - segment + 1 ? horizon : count - segment + 1;
    if (question.depth < 1) question.depth = 1;
    question.last_level = last - 1;
    question.segment_duration_s = video->segment_duration_s;
    question.bandwidth_MBps = bandwidth;
    question.buffer_s = buffer;
    question.rebuffer_penalty = rebuffer_penalty;
    question.smoothness_penalty = smoothness_penalty;
    question.node_limit = abrl_budget_left(L) / MPC_UNITS_PER_NODE;
    abrl_mpc_answer answer;
    memset(&answer, 0, sizeof answer);
    (*search)(&question, &answer);
    abrl_charge(L, answer.nodes * MPC_UNITS_PER_NODE);
    if (!answer.finished) return luaL_error(L, "mpc_search stopped with budget left");
    lua_pushinteger(L, answer.level + 1);
    lua_pushnumber(L, answer.reward);
    return 2;
}

void abrl_push_mpc_search(lua_State *L, int video, const abrl_host *host) {
    video = lua_absindex(L, video);
    void (**search)(const abrl_mpc_question *, abrl_mpc_answer *) = lua_newuserdatauv(L, sizeof *search, 0);
    *search = host != NULL ? host->mpc_search : NULL;
    lua_pushvalue(L, video);
    lua_insert(L, -2);
    lua_pushcclosure(L, mpc_search_call, 2);
}
