/* ctx:quality(segment, level): the per-segment VMAF and SSIM a video manifest carries, copied
   once per session like ctx.size_bytes. */
#include "internal.h"

#include <string.h>

typedef struct quality_table {
    long long segment_count;
    long long level_count;
    int has_vmaf, has_ssim;
    double scores[]; /* vmaf cells, then ssim cells, for the metrics present */
} quality_table;

static void push_score(lua_State *L, int present, const double *cells, long long cell) {
    if (present) lua_pushnumber(L, cells[cell]);
    else lua_pushnil(L);
}

/* ctx.quality(segment, level), also callable as ctx:quality(segment, level); 1-based indices.
   Returns vmaf, ssim: each nil when the video has no such scores or the indices fall outside it. */
static int quality(lua_State *L) {
    const quality_table *table = lua_touserdata(L, lua_upvalueindex(1));
    int first = lua_istable(L, 1) ? 2 : 1;
    lua_Integer segment = luaL_checkinteger(L, first);
    lua_Integer level = luaL_checkinteger(L, first + 1);
    if (segment < 1 || segment > table->segment_count || level < 1 || level > table->level_count) {
        lua_pushnil(L);
        lua_pushnil(L);
        return 2;
    }
    long long cell = (segment - 1) * table->level_count + (level - 1);
    long long cells = table->segment_count * table->level_count;
    push_score(L, table->has_vmaf, table->scores, cell);
    push_score(L, table->has_ssim, table->scores + (table->has_vmaf ? cells : 0), cell);
    return 2;
}

void abrl_push_quality(lua_State *L, const abrl_session_info *info) {
    const abrl_quality *source = info->quality;
    int has_vmaf = source != NULL && source->vmaf != NULL;
    int has_ssim = source != NULL && source->ssim != NULL;
    long long segments = source != NULL ? source->segment_count : 0;
    long long levels = source != NULL ? source->level_count : 0;
    size_t cells = (size_t)segments * (size_t)levels;
    size_t stored = cells * (size_t)(has_vmaf + has_ssim);
    quality_table *table = lua_newuserdatauv(L, sizeof *table + stored * sizeof table->scores[0], 0);
    table->segment_count = segments;
    table->level_count = levels;
    table->has_vmaf = has_vmaf;
    table->has_ssim = has_ssim;
    if (has_vmaf && cells > 0) memcpy(table->scores, source->vmaf, cells * sizeof table->scores[0]);
    if (has_ssim && cells > 0) memcpy(table->scores + (has_vmaf ? cells : 0), source->ssim, cells * sizeof table->scores[0]);
    lua_pushcclosure(L, quality, 1);
}
