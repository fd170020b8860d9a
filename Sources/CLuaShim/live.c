/* The live profile's additions to the session table, ctx and report. */
#include "internal.h"

void abrl_session_table_add_live(lua_State *L, int table, const abrl_session_info *info) {
    int live = info->target_latency_s == info->target_latency_s;
    lua_pushboolean(L, live);
    abrl_set_value(L, table, "live");
    abrl_set_optional_number(L, table, "target_latency_s", live, info->target_latency_s);
    abrl_set_optional_number(L, table, "chunk_duration_s", live, info->chunk_duration_s);
}

/* Writes `chunks` into the array at table[key] as {size_bytes, available_s, first_byte_s,
   arrival_s} tables: made on first use, then reused with their chunk tables (entries past
   `count` are cut), so a decision allocates nothing once the session is under way. */
void abrl_write_chunks(lua_State *L, int table, const char *key, const abrl_chunk *chunks, size_t count) {
    lua_pushstring(L, key);
    if (lua_rawget(L, table) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, count < 4096 ? (int)count : 4096, 0);
        lua_pushstring(L, key);
        lua_pushvalue(L, -2);
        lua_rawset(L, table);
    }
    int array = lua_gettop(L);
    for (size_t i = 0; i < count; i++) {
        if (lua_rawgeti(L, array, (lua_Integer)i + 1) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_createtable(L, 0, 4);
            lua_pushvalue(L, -1);
            lua_rawseti(L, array, (lua_Integer)i + 1);
        }
        int chunk = lua_gettop(L);
        abrl_set_integer(L, chunk, "size_bytes", chunks[i].size_bytes);
        abrl_set_number(L, chunk, "available_s", chunks[i].available_s);
        abrl_set_number(L, chunk, "first_byte_s", chunks[i].first_byte_s);
        abrl_set_number(L, chunk, "arrival_s", chunks[i].arrival_s);
        lua_pop(L, 1);
    }
    for (lua_Integer stale = (lua_Integer)count + 1; lua_rawgeti(L, array, stale) != LUA_TNIL; stale++) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, array, stale);
    }
    lua_pop(L, 2);
}

/* ctx's live fields (live profile). */
void abrl_set_live_fields(lua_State *L, int ctx, const abrl_live *live) {
    abrl_set_number(L, ctx, "live_latency_s", live->latency_s);
    abrl_set_number(L, ctx, "target_latency_s", live->target_latency_s);
    abrl_set_number(L, ctx, "playback_rate", live->playback_rate);
    abrl_set_number(L, ctx, "live_edge_s", live->live_edge_s);
    abrl_set_number(L, ctx, "playhead_s", live->playhead_s);
    abrl_set_number(L, ctx, "chunk_duration_s", live->chunk_duration_s);
    abrl_write_chunks(L, ctx, "last_chunks", live->chunks, live->chunk_count);
}
