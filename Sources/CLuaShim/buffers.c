/* Long strings the libraries build in lauxlib buffers (luaL_Buffer). Past its first
   LUAL_BUFFERSIZE bytes a buffer lives in a "box" userdata whose metatable lauxlib makes on
   first use and whose memory it takes straight from the allocator. */
#include "internal.h"

/* Makes the box metatable while the engine opens. Made on first use, a refused allocation
   between registering it and storing __close would leave every later long buffer failing. */
void abrl_buffers_install(lua_State *L) {
    int top = lua_gettop(L);
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    luaL_prepbuffsize(&buffer, LUAL_BUFFERSIZE + 1);
    luaL_pushresult(&buffer);
    if (luaL_getmetatable(L, "_UBOX*") != LUA_TTABLE || lua_getfield(L, -1, "__close") == LUA_TNIL) {
        luaL_error(L, "lauxlib made no buffer metatable with __close");
    }
    lua_settop(L, top);
}
