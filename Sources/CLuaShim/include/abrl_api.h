#ifndef ABRLAB_CLUA_SHIM_API_H
#define ABRLAB_CLUA_SHIM_API_H

#include <stddef.h>

/* The Lua API's tables, declared once (api.c): the shim fills every table a script sees from
   these rows, and tests hold docs/lua-api.md, docs/qoe.md and Strategies/abrlab.d.lua to them. */
enum {
    ABRL_TABLE_CTX = 0,     /* choose(ctx) */
    ABRL_TABLE_REPORT,      /* on_download(report) */
    ABRL_TABLE_CHUNK,       /* each of ctx.last_chunks and report.chunks */
    ABRL_TABLE_PROGRESS,    /* check_abandon(progress) */
    ABRL_TABLE_WAIT,        /* on_wait(wait) */
    ABRL_TABLE_PLAYBACK,    /* on_playback(playback), live only */
    ABRL_TABLE_SESSION,     /* setup(session) */
    ABRL_TABLE_VIDEO,       /* check(video): the session's fields that hold for every session */
    ABRL_TABLE_QOE_SEGMENT, /* qoe(segment, session) */
    ABRL_TABLE_QOE_SESSION,
    ABRL_TABLE_COUNT
};

/* A field's Lua type. */
enum {
    ABRL_TYPE_INTEGER = 0,
    ABRL_TYPE_NUMBER,
    ABRL_TYPE_BOOLEAN,
    ABRL_TYPE_STRING,
    ABRL_TYPE_INTEGERS, /* an array of integers */
    ABRL_TYPE_NUMBERS,  /* an array of numbers */
    ABRL_TYPE_TABLES,   /* an array of tables */
    ABRL_TYPE_TABLE,
    ABRL_TYPE_FUNCTION
};

/* When a field is nil. */
enum {
    ABRL_NIL_NEVER = 0,
    ABRL_NIL_UNSET,   /* when the value does not exist yet or at all (last_level before a download) */
    ABRL_NIL_OFF_LIVE /* off the live profile */
};

/* One field of a table. */
typedef struct abrl_api_field {
    const char *name;
    int type;               /* ABRL_TYPE_ */
    const char *annotation; /* its LuaCATS type when narrower than `type` says; NULL otherwise */
    const char *unit;       /* "s", "kbps" or "bytes", as the name ends; "" for none */
    int nil_when;           /* ABRL_NIL_ */
    int one_based;          /* an index: 1-based in Lua, 0-based on the C side */
    const char *doc;        /* its line in Strategies/abrlab.d.lua */
} abrl_api_field;

/* A table: its name in messages ("ctx has no field 'x'"), its LuaCATS class, whether reading a
   field it does not declare is an error, and its fields in order. */
const char *abrl_api_table_name(int table);
const char *abrl_api_class_name(int table);
int abrl_api_table_is_strict(int table);
size_t abrl_api_field_count(int table);
const abrl_api_field *abrl_api_field_at(int table, size_t index);

#endif
