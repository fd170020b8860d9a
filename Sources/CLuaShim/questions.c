/* The question form's three questions, asked of a script that answers in bits per second. */
#include "internal.h"

typedef struct seed_call {
    abrl_session *session;
    int question;
    long long current_bps;
    double value;
    int quality;
    long long bitrate;
    int has_bitrate;
} seed_call;

static int is_ladder_bitrate(const abrl_session *session, lua_Integer bitrate) {
    for (long long i = 0; i < session->level_count; i++) {
        if (session->levels_bps[i] == bitrate) return 1;
    }
    return 0;
}

/* An answer must be nil (no switch; not allowed for the initial bitrate) or a ladder bitrate. */
static void read_bitrate(lua_State *L, seed_call *call) {
    if (lua_isnil(L, -1) && call->question != ABRL_SEED_INITIAL) {
        call->has_bitrate = 0;
        return;
    }
    int is_integer = 0;
    lua_Integer value = lua_type(L, -1) == LUA_TNUMBER ? lua_tointegerx(L, -1, &is_integer) : 0;
    if (is_integer && is_ladder_bitrate(call->session, value)) {
        call->bitrate = value;
        call->has_bitrate = 1;
        return;
    }
    abrl_engine *engine = abrl_engine_of(L);
    abrl_render_value(L, -1, engine->message, sizeof engine->message);
    engine->pending_code = ABRL_ERR_RESULT;
}

static int seed_body(lua_State *L) {
    seed_call *call = lua_touserdata(L, 1);
    abrl_session *session = call->session;
    int quality = call->quality < 0 ? 0 : call->quality > 4 ? 4 : call->quality;
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->seed_functions[call->question]);
    int arguments = 2;
    if (call->question != ABRL_SEED_INITIAL) {
        lua_pushinteger(L, call->current_bps);
        lua_pushnumber(L, call->value);
        arguments = 4;
    }
    lua_pushstring(L, abrl_quality_names[quality]);
    lua_rawgeti(L, LUA_REGISTRYINDEX, session->refs.levels_bps);
    lua_call(L, arguments, 1);
    read_bitrate(L, call);
    return 0;
}

int abrl_session_seed(abrl_session *session, int question, long long current_bps, double value,
                      int network_quality, long long *bitrate_bps, int *has_bitrate) {
    if (question < ABRL_SEED_INITIAL || question > ABRL_SEED_DOWNGRADE || session->form != ABRL_FORM_SEED) {
        abrl_set_message(session->engine, "not a seed-protocol script");
        return ABRL_ERR_SCRIPT;
    }
    seed_call call = {session, question, current_bps, value, network_quality, 0, 0};
    int code = abrl_session_call(session, seed_body, &call);
    if (code == ABRL_OK) {
        *bitrate_bps = call.bitrate;
        *has_bitrate = call.has_bitrate;
    }
    return code;
}
