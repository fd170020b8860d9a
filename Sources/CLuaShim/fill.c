/* One routine fills every table a script sees, from its declaration in api.c, and one metatable
   makes the strict ones refuse fields they do not declare. */
#include "internal.h"

#include <pthread.h>
#include <string.h>

#define AT(record, offset, type) (*(type const *)((const char *)(record) + (offset)))

/* The rows each group fills in each table, in declaration order, so that a fill (ctx's before
   every decision) visits only its own. Built once per process from api.c. */
enum { MAX_ROWS = 256 };
static const abrl_field *group_rows[MAX_ROWS];
static struct { unsigned short start, count; } spans[ABRL_TABLE_COUNT][ABRL_GROUP_COUNT];
static pthread_once_t spans_built = PTHREAD_ONCE_INIT;

static void build_spans(void) {
    size_t next = 0;
    for (int table = 0; table < ABRL_TABLE_COUNT; table++) {
        const abrl_table *declared = &abrl_tables[table];
        for (int group = 0; group < ABRL_GROUP_COUNT; group++) {
            spans[table][group].start = (unsigned short)next;
            for (size_t i = 0; i < declared->count && next < MAX_ROWS; i++) {
                const abrl_field *field = &declared->fields[i];
                if (field->group == group && !(declared->skips_per_session && field->per_session)) group_rows[next++] = field;
            }
            spans[table][group].count = (unsigned short)(next - spans[table][group].start);
        }
    }
}

static void fill_rows(lua_State *L, int table, int names, int table_id, int group, const void *record);

/* The interned Lua string of each declared name, keyed by the name's address: pushing a C string
   costs a strcmp against Lua's string cache (and a hash when it misses) on every field of every
   fill; a lookup by address costs neither. */
static const char names_key = 'n';

static int push_names(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &names_key) == LUA_TTABLE) return lua_gettop(L);
    lua_pop(L, 1);
    lua_createtable(L, 0, MAX_ROWS);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &names_key);
    return lua_gettop(L);
}

static void push_name(lua_State *L, int names, const char *name) {
    if (lua_rawgetp(L, names, name) == LUA_TSTRING) return;
    lua_pop(L, 1);
    lua_pushstring(L, name);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, names, name);
}

/* Fills the array at table[key] with `count` chunk tables: made on first use, then reused with
   its chunk tables (entries past `count` are cut), so a decision allocates nothing once the
   session is under way. */
static void write_chunks(lua_State *L, int table, int names, const char *key, const abrl_chunk *chunks, size_t count) {
    push_name(L, names, key);
    if (lua_rawget(L, table) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, count < 4096 ? (int)count : 4096, 0);
        push_name(L, names, key);
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
        fill_rows(L, lua_gettop(L), names, ABRL_TABLE_CHUNK, ABRL_GROUP_CHUNK, &chunks[i]);
        lua_pop(L, 1);
    }
    for (lua_Integer stale = (lua_Integer)count + 1; lua_rawgeti(L, array, stale) != LUA_TNIL; stale++) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, array, stale);
    }
    lua_pop(L, 2);
}

/* Pushes the value of `field` in `record`; nil for an unset one (chunks: only unset ones come here). */
static void push_value(lua_State *L, int names, const abrl_field *field, const void *record) {
    int unset = field->api.nil_when == ABRL_NIL_UNSET;
    switch (field->read) {
    case ABRL_READ_INTEGER:
        lua_pushinteger(L, AT(record, field->offset, long long));
        break;
    case ABRL_READ_INDEX: {
        long long index = AT(record, field->offset, long long);
        if (unset && index < 0) lua_pushnil(L); else lua_pushinteger(L, index + 1);
        break;
    }
    case ABRL_READ_NUMBER: {
        double number = AT(record, field->offset, double);
        if (unset && number != number) lua_pushnil(L); else lua_pushnumber(L, number);
        break;
    }
    case ABRL_READ_BOOLEAN:
        lua_pushboolean(L, AT(record, field->offset, int));
        break;
    case ABRL_READ_STRING:
        lua_pushlstring(L, AT(record, field->offset, const char *), AT(record, field->extra, size_t));
        break;
    case ABRL_READ_NAME: {
        int name = AT(record, field->offset, int);
        int last = (int)field->extra - 1;
        if (unset && name < 0) lua_pushnil(L); else push_name(L, names, field->names[name < 0 ? 0 : name > last ? last : name]);
        break;
    }
    case ABRL_READ_NUMBERS: {
        const double *numbers = AT(record, field->offset, const double *);
        long long count = AT(record, field->extra, long long);
        lua_createtable(L, (int)count, 0);
        for (long long i = 0; i < count; i++) {
            lua_pushnumber(L, numbers[i]);
            lua_rawseti(L, -2, i + 1);
        }
        break;
    }
    case ABRL_READ_CHUNKS: /* abrl_fill writes the others in place */
        lua_pushnil(L);
        break;
    default:
        lua_pushvalue(L, AT(record, field->offset, int));
        break;
    }
}

/* abrl_fill's work, once the spans are built; `table` is an absolute index. */
static void fill_rows(lua_State *L, int table, int names, int table_id, int group, const void *record) {
    const abrl_field *const *rows = group_rows + spans[table_id][group].start;
    for (size_t i = 0; i < spans[table_id][group].count; i++) {
        const abrl_field *field = rows[i];
        if (field->read == ABRL_READ_CHUNKS) {
            const abrl_chunk *chunks = AT(record, field->offset, const abrl_chunk *);
            if (chunks != NULL || field->api.nil_when != ABRL_NIL_UNSET) {
                write_chunks(L, table, names, field->api.name, chunks, AT(record, field->extra, size_t));
                continue;
            }
        }
        push_name(L, names, field->api.name);
        push_value(L, names, field, record);
        lua_rawset(L, table);
    }
}

void abrl_setting_init(abrl_setting *setting, const abrl_session_info *info) {
    memset(setting, 0, sizeof *setting);
    setting->info = *info;
    setting->live = info->target_latency_s == info->target_latency_s;
}

void abrl_fill(lua_State *L, int table, int table_id, int group, const void *record) {
    pthread_once(&spans_built, build_spans);
    table = lua_absindex(L, table);
    int names = push_names(L);
    fill_rows(L, table, names, table_id, group, record);
    lua_pop(L, 1);
}

/* __index of strict tables: fields that may be nil read as nil, anything else is a mistake. */
static int strict_index(lua_State *L) {
    const abrl_table *declared = lua_touserdata(L, lua_upvalueindex(1));
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    if (key != NULL) {
        for (size_t i = 0; i < declared->count; i++) {
            const abrl_field *field = &declared->fields[i];
            if (declared->skips_per_session && field->per_session) continue;
            if (field->api.nil_when != ABRL_NIL_NEVER && strcmp(field->api.name, key) == 0) return 0;
        }
        return luaL_error(L, "%s has no field '%s'", declared->name, key);
    }
    char rendered[64];
    abrl_render_value(L, 2, rendered, sizeof rendered);
    return luaL_error(L, "%s has no field %s", declared->name, rendered);
}

void abrl_set_strict(lua_State *L, int index, int table_id) {
    index = lua_absindex(L, index);
    lua_createtable(L, 0, 1);
    lua_pushlightuserdata(L, (void *)&abrl_tables[table_id]);
    lua_pushcclosure(L, strict_index, 1);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, index);
}
