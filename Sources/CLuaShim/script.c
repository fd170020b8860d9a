/* Scripts: compiling once per engine, reading what a script declares (name, description,
   params, form), and evaluating a one-off chunk. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct compile_call {
    const char *source;
    size_t length;
    const char *name;
    int ref;
} compile_call;

/* Loads text into a function on the stack, or raises the load error with its code. */
static void load_text(lua_State *L, const char *source, size_t length, const char *name) {
    int status = luaL_loadbufferx(L, source, length, name, "t");
    if (status == LUA_OK) return;
    abrl_engine_of(L)->pending_code = status == LUA_ERRSYNTAX ? ABRL_ERR_SYNTAX : ABRL_ERR_RUNTIME;
    lua_error(L);
}

static int compile_body(lua_State *L) {
    compile_call *call = lua_touserdata(L, 1);
    load_text(L, call->source, call->length, call->name);
    call->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* The collector stays off while the chunk is compiled, so the bytes allocated meanwhile are what
   the kept chunk holds (and the parser's own scratch objects, the same for the same text), not
   garbage of earlier sessions collected on the way. */
int abrl_script_compile(abrl_engine *engine, const char *source, size_t length,
                        const char *chunk_name, int *chunk_ref) {
    lua_gc(engine->L, LUA_GCSTOP);
    size_t before = engine->memory_used;
    compile_call call = {source, length, chunk_name, LUA_NOREF};
    int code = abrl_call(engine, compile_body, &call);
    size_t after = engine->memory_used;
    lua_gc(engine->L, LUA_GCRESTART);
    *chunk_ref = call.ref;
    if (code == ABRL_OK && after > before) engine->cache_bytes += after - before;
    return code;
}

typedef struct release_call {
    const int *refs;
    size_t count;
} release_call;

static int release_body(lua_State *L) {
    release_call *call = lua_touserdata(L, 1);
    for (size_t i = 0; i < call->count; i++) luaL_unref(L, LUA_REGISTRYINDEX, call->refs[i]);
    lua_gc(L, LUA_GCCOLLECT);
    return 0;
}

void abrl_script_release(abrl_engine *engine, const int *chunk_refs, size_t count) {
    release_call call = {chunk_refs, count};
    abrl_call(engine, release_body, &call);
    engine->cache_bytes = 0;
}

typedef struct eval_call {
    const char *source;
    size_t length;
    const char *name;
    double value;
} eval_call;

static int eval_body(lua_State *L) {
    eval_call *call = lua_touserdata(L, 1);
    load_text(L, call->source, call->length, call->name);
    abrl_push_env(L, 0, NULL);
    lua_setupvalue(L, -2, 1);
    lua_call(L, 0, 1);
    int is_number = 0;
    call->value = lua_tonumberx(L, -1, &is_number);
    if (!is_number) return abrl_script_error(L, ABRL_ERR_TYPE, "chunk did not return a number");
    return 0;
}

int abrl_eval_number(abrl_engine *engine, const char *source, size_t length,
                     const char *chunk_name, double *out) {
    eval_call call = {source, length, chunk_name, 0};
    int code = abrl_call(engine, eval_body, &call);
    if (code == ABRL_OK) *out = call.value;
    return code;
}

typedef struct inspect_call {
    int chunk;
    const abrl_host *host;
    abrl_inspection *result;
} inspect_call;

static char *copy_string(lua_State *L, int index) {
    size_t length;
    const char *text = lua_tolstring(L, index, &length);
    char *copy = malloc(length + 1);
    if (copy == NULL) luaL_error(L, "not enough memory");
    memcpy(copy, text, length + 1);
    return copy;
}

/* Reads an optional string field of the module into *out. */
static void read_text(lua_State *L, int module, const char *key, char **out) {
    int type = lua_getfield(L, module, key);
    if (type == LUA_TSTRING) {
        *out = copy_string(L, -1);
    } else if (type != LUA_TNIL) {
        abrl_script_error(L, ABRL_ERR_SCRIPT, "%s must be a string, not a %s value", key, luaL_typename(L, -1));
    }
    lua_pop(L, 1);
}

/* 1 when the field is a function, 0 when absent; raises when it is something else. */
static int has_function(lua_State *L, int module, const char *key) {
    int type = lua_getfield(L, module, key);
    lua_pop(L, 1);
    if (type == LUA_TFUNCTION) return 1;
    if (type == LUA_TNIL) return 0;
    return abrl_script_error(L, ABRL_ERR_SCRIPT, "%s must be a function, not a %s value", key, lua_typename(L, type));
}

static int read_form(lua_State *L, int module) {
    has_function(L, module, "setup");
    has_function(L, module, "on_download");
    has_function(L, module, "check_abandon");
    has_function(L, module, "on_wait");
    has_function(L, module, "on_playback");
    has_function(L, module, "check");
    if (has_function(L, module, "choose")) return ABRL_FORM_SESSION;
    static const char *const seed[] = {"initial_bitrate", "should_upgrade", "should_downgrade"};
    int found = 0;
    const char *missing = NULL;
    for (int i = 0; i < 3; i++) {
        if (has_function(L, module, seed[i])) found++;
        else if (missing == NULL) missing = seed[i];
    }
    if (found == 3) return ABRL_FORM_SEED;
    if (found > 0) return abrl_script_error(L, ABRL_ERR_SCRIPT, "the question form needs initial_bitrate, should_upgrade and should_downgrade; %s is missing", missing);
    return abrl_script_error(L, ABRL_ERR_SCRIPT, "the script defines no choose function");
}

static int is_name(const char *text, size_t length) {
    if (length == 0 || (text[0] >= '0' && text[0] <= '9')) return 0;
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return 0;
    }
    return 1;
}

/* Checks one key/value pair at the top of the stack; returns the text bytes it needs. */
static size_t check_param(lua_State *L) {
    if (lua_type(L, -2) != LUA_TSTRING) abrl_script_error(L, ABRL_ERR_SCRIPT, "params keys must be strings");
    size_t key_length, value_length = 0;
    const char *key = lua_tolstring(L, -2, &key_length);
    if (!is_name(key, key_length)) abrl_script_error(L, ABRL_ERR_SCRIPT, "params key '%s' is not a name", key);
    int type = lua_type(L, -1);
    if (type == LUA_TSTRING) {
        lua_tolstring(L, -1, &value_length);
    } else if (type != LUA_TNUMBER && type != LUA_TBOOLEAN) {
        abrl_script_error(L, ABRL_ERR_SCRIPT, "params.%s must be a number, integer, boolean or string, not a %s value", key, lua_typename(L, type));
    }
    return key_length + 1 + value_length + 1;
}

static void store_param(lua_State *L, abrl_inspection *result, size_t *used) {
    abrl_param *param = &result->params[result->param_count++];
    size_t key_length, value_length;
    const char *key = lua_tolstring(L, -2, &key_length);
    param->key_offset = *used;
    memcpy(result->text + *used, key, key_length + 1);
    *used += key_length + 1;
    switch (lua_type(L, -1)) {
    case LUA_TBOOLEAN:
        param->type = ABRL_PARAM_BOOLEAN;
        param->boolean = lua_toboolean(L, -1);
        break;
    case LUA_TSTRING: {
        const char *value = lua_tolstring(L, -1, &value_length);
        param->type = ABRL_PARAM_STRING;
        param->string_offset = *used;
        param->string_length = value_length;
        memcpy(result->text + *used, value, value_length + 1);
        *used += value_length + 1;
        break;
    }
    default:
        if (lua_isinteger(L, -1)) {
            param->type = ABRL_PARAM_INTEGER;
            param->integer = lua_tointeger(L, -1);
        } else {
            param->type = ABRL_PARAM_NUMBER;
            param->number = lua_tonumber(L, -1);
        }
        break;
    }
}

static void read_params(lua_State *L, int module, abrl_inspection *result) {
    int type = lua_getfield(L, module, "params");
    if (type == LUA_TNIL) return;
    if (type != LUA_TTABLE) abrl_script_error(L, ABRL_ERR_SCRIPT, "params must be a table, not a %s value", lua_typename(L, type));
    int params = lua_gettop(L);
    size_t count = 0, bytes = 0;
    for (lua_pushnil(L); lua_next(L, params); lua_pop(L, 1)) {
        bytes += check_param(L);
        count++;
    }
    result->text = malloc(bytes + 1);
    result->params = calloc(count + 1, sizeof *result->params);
    if (result->text == NULL || result->params == NULL) luaL_error(L, "not enough memory");
    size_t used = 0;
    for (lua_pushnil(L); lua_next(L, params); lua_pop(L, 1)) store_param(L, result, &used);
    result->text_length = used;
    lua_pop(L, 1);
}

static abrl_param *find_param(abrl_inspection *result, const char *key) {
    for (size_t i = 0; i < result->param_count; i++) {
        if (strcmp(result->text + result->params[i].key_offset, key) == 0) return &result->params[i];
    }
    return NULL;
}

/* param_types = { key = "integer" | "number" }: "integer" keeps overrides of an integer default
   integral; without it a number default of either kind takes any number. */
static void read_param_types(lua_State *L, int module, abrl_inspection *result) {
    int type = lua_getfield(L, module, "param_types");
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    if (type != LUA_TTABLE) abrl_script_error(L, ABRL_ERR_SCRIPT, "param_types must be a table, not a %s value", lua_typename(L, type));
    int types = lua_gettop(L);
    for (lua_pushnil(L); lua_next(L, types); lua_pop(L, 1)) {
        if (lua_type(L, -2) != LUA_TSTRING) abrl_script_error(L, ABRL_ERR_SCRIPT, "param_types keys must be strings");
        const char *key = lua_tostring(L, -2);
        abrl_param *param = find_param(result, key);
        if (param == NULL) abrl_script_error(L, ABRL_ERR_SCRIPT, "param_types.%s names no entry of params", key);
        const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (strcmp(name, "integer") == 0) {
            if (param->type != ABRL_PARAM_INTEGER) abrl_script_error(L, ABRL_ERR_SCRIPT, "params.%s is declared an integer but its default is not one", key);
            param->integer_only = 1;
        } else if (strcmp(name, "number") == 0) {
            if (param->type != ABRL_PARAM_INTEGER && param->type != ABRL_PARAM_NUMBER) {
                abrl_script_error(L, ABRL_ERR_SCRIPT, "params.%s is declared a number but its default is not one", key);
            }
        } else {
            abrl_script_error(L, ABRL_ERR_SCRIPT, "param_types.%s must be \"integer\" or \"number\"", key);
        }
    }
    lua_pop(L, 1);
}

static int inspect_body(lua_State *L) {
    inspect_call *call = lua_touserdata(L, 1);
    call->result = calloc(1, sizeof *call->result);
    if (call->result == NULL) return luaL_error(L, "not enough memory");
    abrl_push_env(L, 0, call->host);
    lua_rawgeti(L, LUA_REGISTRYINDEX, call->chunk);
    lua_pushvalue(L, -2);
    lua_call(L, 1, 1);
    int module = lua_gettop(L);
    if (!lua_istable(L, module)) {
        return abrl_script_error(L, ABRL_ERR_SCRIPT, "the script must return a table, not a %s value", luaL_typename(L, module));
    }
    read_text(L, module, "name", &call->result->name);
    read_text(L, module, "description", &call->result->description);
    call->result->form = read_form(L, module);
    read_params(L, module, call->result);
    read_param_types(L, module, call->result);
    return 0;
}

int abrl_script_inspect(abrl_engine *engine, int chunk_ref, const abrl_host *host,
                        abrl_inspection **out) {
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

void abrl_inspection_free(abrl_inspection *inspection) {
    if (inspection == NULL) return;
    free(inspection->name);
    free(inspection->description);
    free(inspection->text);
    free(inspection->params);
    free(inspection);
}
