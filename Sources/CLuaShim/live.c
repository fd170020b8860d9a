/* The live profile's additions to the session table, ctx and report, and choose's optional
   playback rate. */
#include "internal.h"

void abrl_session_table_add_live(lua_State *L, int table, const abrl_session_info *info) {
    int live = info->target_latency_s == info->target_latency_s;
    lua_pushboolean(L, live);
    abrl_set_value(L, table, "live");
    abrl_set_optional_number(L, table, "target_latency_s", live, info->target_latency_s);
    abrl_set_optional_number(L, table, "chunk_duration_s", live, info->chunk_duration_s);
}

/* A fresh array of chunk tables {size_bytes, available_s, first_byte_s, arrival_s}. */
void abrl_push_chunks(lua_State *L, const abrl_chunk *chunks, size_t count) {
    lua_createtable(L, count < 4096 ? (int)count : 4096, 0);
    int array = lua_gettop(L);
    for (size_t i = 0; i < count; i++) {
        lua_createtable(L, 0, 4);
        int chunk = lua_gettop(L);
        abrl_set_integer(L, chunk, "size_bytes", chunks[i].size_bytes);
        abrl_set_number(L, chunk, "available_s", chunks[i].available_s);
        abrl_set_number(L, chunk, "first_byte_s", chunks[i].first_byte_s);
        abrl_set_number(L, chunk, "arrival_s", chunks[i].arrival_s);
        lua_rawseti(L, array, (lua_Integer)i + 1);
    }
}

/* ctx's live fields (live profile). */
void abrl_set_live_fields(lua_State *L, int ctx, const abrl_live *live) {
    abrl_set_number(L, ctx, "live_latency_s", live->latency_s);
    abrl_set_number(L, ctx, "target_latency_s", live->target_latency_s);
    abrl_set_number(L, ctx, "playback_rate", live->playback_rate);
    abrl_set_number(L, ctx, "live_edge_s", live->live_edge_s);
    abrl_set_number(L, ctx, "playhead_s", live->playhead_s);
    abrl_set_number(L, ctx, "chunk_duration_s", live->chunk_duration_s);
    abrl_push_chunks(L, live->chunks, live->chunk_count);
    abrl_set_value(L, ctx, "last_chunks");
}

/* The optional playback rate after the delay: nil, or a number in 0.5…2 (dash.js's limits). */
void abrl_read_playback_rate(lua_State *L, int index, double *rate) {
    int type = lua_type(L, index);
    if (type == LUA_TNIL || type == LUA_TNONE) return;
    int is_number = 0;
    double value = lua_tonumberx(L, index, &is_number);
    if (is_number && value >= 0.5 && value <= 2) {
        *rate = value;
        return;
    }
    abrl_engine *engine = abrl_engine_of(L);
    char rendered[64];
    abrl_render_value(L, index, rendered, sizeof rendered);
    abrl_set_message(engine, "a playback rate of %s; rates are nil or 0.5…2", rendered);
    engine->pending_code = ABRL_ERR_RESULT;
}

