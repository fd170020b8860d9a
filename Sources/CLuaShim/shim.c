#include "CLuaShim.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

struct abrl_engine {
    lua_State *L;
};

static void copy_message(char *err, size_t err_size, const char *message) {
    if (err == NULL || err_size == 0) return;
    if (message == NULL) message = "unknown Lua error";
    size_t n = strlen(message);
    if (n >= err_size) n = err_size - 1;
    memcpy(err, message, n);
    err[n] = '\0';
}

/* Opens only the allow-listed standard libraries. */
static int open_libraries(lua_State *L) {
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},
        {LUA_TABLIBNAME, luaopen_table},
        {LUA_STRLIBNAME, luaopen_string},
        {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},
        {NULL, NULL}};
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    return 0;
}

abrl_engine *abrl_engine_open(void) {
    lua_State *L = luaL_newstate();
    if (L == NULL) return NULL;
    lua_pushcfunction(L, open_libraries);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
        lua_close(L);
        return NULL;
    }
    abrl_engine *engine = malloc(sizeof *engine);
    if (engine == NULL) {
        lua_close(L);
        return NULL;
    }
    engine->L = L;
    return engine;
}

void abrl_engine_close(abrl_engine *engine) {
    if (engine == NULL) return;
    lua_close(engine->L);
    free(engine);
}

int abrl_eval_number(abrl_engine *engine, const char *source, size_t length,
                     const char *chunk_name, double *out, char *err, size_t err_size) {
    lua_State *L = engine->L;
    int top = lua_gettop(L);
    int status = luaL_loadbufferx(L, source, length, chunk_name, "t");
    if (status != LUA_OK) {
        copy_message(err, err_size, lua_tostring(L, -1));
        lua_settop(L, top);
        return status == LUA_ERRMEM ? ABRL_ERR_MEMORY : ABRL_ERR_SYNTAX;
    }
    status = lua_pcall(L, 0, 1, 0);
    if (status != LUA_OK) {
        const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error object is not a string";
        copy_message(err, err_size, message);
        lua_settop(L, top);
        return status == LUA_ERRMEM ? ABRL_ERR_MEMORY : ABRL_ERR_RUNTIME;
    }
    int is_number = 0;
    double value = lua_tonumberx(L, -1, &is_number);
    lua_settop(L, top);
    if (!is_number) {
        copy_message(err, err_size, "chunk did not return a number");
        return ABRL_ERR_TYPE;
    }
    *out = value;
    return ABRL_OK;
}
