/* ctx:mpc_search: RobustMPC's look-ahead search in C, for scripts (robust_mpc.lua) whose pure-Lua
   search is too slow on large ladders. It is the same depth-first search with the same pruning
   bound and tie rule as the native RobustMPCStrategy, operation for operation, so both choose
   the same level. Its work is charged to the instruction budget as it goes. */
#include "internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

enum { MPC_MAX_HORIZON = 10, MPC_MAX_LEVELS = 64, MPC_CHARGE_EVERY = 256, MPC_UNITS_PER_NODE = 32 };

/* The video as the search needs it, copied once per session: kbps[level_count], then sizes. */
typedef struct mpc_video {
    long long level_count;
    long long size_segment_count;
    double segment_duration_s;
    double kbps[MPC_MAX_LEVELS];
    long long bytes[];
} mpc_video;

typedef struct mpc_search {
    lua_State *L;
    const mpc_video *video;
    int depth;
    int levels;
    double rebuffer_penalty;
    double smoothness_penalty;
    int prunes;
    double times[MPC_MAX_HORIZON][MPC_MAX_LEVELS];
    int path[MPC_MAX_HORIZON];
    int best_path[MPC_MAX_HORIZON];
    double best;
    unsigned long long nodes;
} mpc_search;

/* Whether path a comes after path b in lexicographic order. */
static int later(const int *a, const int *b, int depth) {
    for (int i = 0; i < depth; i++) {
        if (a[i] != b[i]) return a[i] > b[i];
    }
    return 0;
}

/* What positions `from`… can add at best: each step's top bitrate less the rebuffering it must
   cause even if the buffer grew by a whole segment at every step. */
static double optimistic_gain(const mpc_search *s, int from, double buffer) {
    double gain = 0, ceiling = buffer;
    for (int step = from; step < s->depth; step++) {
        double step_best = -DBL_MAX;
        for (int level = 0; level < s->levels; level++) {
            double shortfall = s->times[step][level] - ceiling;
            double value = s->video->kbps[level] / 1000 - s->rebuffer_penalty * (shortfall > 0 ? shortfall : 0);
            if (value > step_best) step_best = value;
        }
        gain += step_best;
        ceiling += s->video->segment_duration_s;
    }
    return gain;
}

static void explore(mpc_search *s, int position, double buffer, double rebuffer, double bitrate_sum,
                    double switches, int last) {
    if (++s->nodes % MPC_CHARGE_EVERY == 0) abrl_charge(s->L, MPC_CHARGE_EVERY * MPC_UNITS_PER_NODE);
    if (position == s->depth) {
        double reward = bitrate_sum / 1000 - s->rebuffer_penalty * rebuffer - s->smoothness_penalty * switches / 1000;
        if (reward > s->best || (reward == s->best && later(s->path, s->best_path, s->depth))) {
            s->best = reward;
            memcpy(s->best_path, s->path, sizeof s->path);
        }
        return;
    }
    if (s->prunes && position > 0) {
        double so_far = bitrate_sum / 1000 - s->rebuffer_penalty * rebuffer - s->smoothness_penalty * switches / 1000;
        if (so_far + optimistic_gain(s, position, buffer) < s->best - 1e-9 * fmax(1, fabs(s->best))) return;
    }
    const double *kbps = s->video->kbps;
    for (int level = s->levels - 1; level >= 0; level--) {
        double download = s->times[position][level];
        double next_buffer = buffer, next_rebuffer = rebuffer;
        if (next_buffer < download) {
            next_rebuffer += download - next_buffer;
            next_buffer = 0;
        } else {
            next_buffer -= download;
        }
        next_buffer += s->video->segment_duration_s;
        s->path[position] = level;
        explore(s, position + 1, next_buffer, next_rebuffer, bitrate_sum + kbps[level],
                switches + fabs(kbps[level] - kbps[last]), level);
    }
}

/* The reward of the myopic sequence (each step the best single-step gain), summed exactly as
   explore sums along a path. It is a real sequence, so the optimum is at least this good: as the
   starting incumbent it lets the bound prune from the first node without changing the choice. */
static double greedy_reward(const mpc_search *s, double buffer, int last) {
    const double *kbps = s->video->kbps;
    double rebuffer = 0, bitrate_sum = 0, switches = 0;
    for (int position = 0; position < s->depth; position++) {
        int choice = 0;
        double choice_value = -DBL_MAX;
        for (int level = 0; level < s->levels; level++) {
            double shortfall = s->times[position][level] - buffer;
            double value = kbps[level] / 1000 - s->rebuffer_penalty * (shortfall > 0 ? shortfall : 0)
                - s->smoothness_penalty * fabs(kbps[level] - kbps[last]) / 1000;
            if (value > choice_value) {
                choice_value = value;
                choice = level;
            }
        }
        double download = s->times[position][choice];
        if (buffer < download) {
            rebuffer += download - buffer;
            buffer = 0;
        } else {
            buffer -= download;
        }
        buffer += s->video->segment_duration_s;
        bitrate_sum += kbps[choice];
        switches += fabs(kbps[choice] - kbps[last]);
        last = choice;
    }
    return bitrate_sum / 1000 - s->rebuffer_penalty * rebuffer - s->smoothness_penalty * switches / 1000;
}

static lua_Integer field_integer(lua_State *L, int table, const char *key) {
    lua_getfield(L, table, key);
    lua_Integer value = luaL_checkinteger(L, -1);
    lua_pop(L, 1);
    return value;
}

/* ctx:mpc_search(bandwidth_MBps, horizon, lookahead_offset, rebuffer_penalty, smoothness_penalty)
   → the 1-based first level of the best sequence, and its reward. Reads segment_index,
   segment_count, buffer_s and last_level from ctx. */
static int mpc_search_call(lua_State *L) {
    const mpc_video *video = lua_touserdata(L, lua_upvalueindex(1));
    if (video->level_count == 0) return luaL_error(L, "mpc_search handles ladders of up to %d levels", MPC_MAX_LEVELS);
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

    mpc_search s;
    memset(&s, 0, sizeof s);
    s.L = L;
    s.video = video;
    s.levels = (int)video->level_count;
    s.depth = (int)(horizon < count - segment + 1 ? horizon : count - segment + 1);
    if (s.depth < 1) s.depth = 1;
    s.rebuffer_penalty = luaL_optnumber(L, 5, 4.3);
    s.smoothness_penalty = luaL_optnumber(L, 6, 1);
    s.prunes = s.rebuffer_penalty >= 0 && s.smoothness_penalty >= 0;
    s.best = -DBL_MAX;
    for (int position = 0; position < s.depth; position++) {
        s.best_path[position] = -1;
        lua_Integer index = segment + offset + position - 1;
        for (int level = 0; level < s.levels; level++) {
            long long size = index >= 0 && index < video->size_segment_count
                ? video->bytes[index * video->level_count + level] : 0;
            s.times[position][level] = ((double)size / 1000000) / bandwidth;
        }
    }
    if (s.prunes) s.best = greedy_reward(&s, buffer, (int)(last - 1));
    explore(&s, 0, buffer, 0, 0, 0, (int)(last - 1));
    abrl_charge(L, (s.nodes % MPC_CHARGE_EVERY) * MPC_UNITS_PER_NODE);
    lua_pushinteger(L, s.best_path[0] < 0 ? 1 : s.best_path[0] + 1);
    lua_pushnumber(L, s.best);
    return 2;
}

void abrl_push_mpc_search(lua_State *L, const abrl_session_info *info) {
    /* Ladders longer than the search handles keep no sizes; calling the search then is an error. */
    int fits = info->level_count <= MPC_MAX_LEVELS;
    size_t cells = fits ? (size_t)info->size_segment_count * (size_t)info->level_count : 0;
    mpc_video *video = lua_newuserdatauv(L, sizeof *video + cells * sizeof video->bytes[0], 0);
    video->level_count = fits ? info->level_count : 0;
    video->size_segment_count = fits ? info->size_segment_count : 0;
    video->segment_duration_s = info->segment_duration_s;
    for (long long i = 0; i < video->level_count; i++) video->kbps[i] = info->levels_kbps[i];
    if (cells > 0) memcpy(video->bytes, info->sizes_bytes, cells * sizeof video->bytes[0]);
    lua_pushcclosure(L, mpc_search_call, 1);
}
