#ifndef ABRLAB_CLUA_SHIM_H
#define ABRLAB_CLUA_SHIM_H

#include <stddef.h>

/* An opaque Lua engine. Swift never sees lua_State; every call that can raise a Lua
   error runs inside lua_pcall here, so no longjmp crosses a Swift frame. */
typedef struct abrl_engine abrl_engine;

/* Result codes shared with Swift. */
enum {
    ABRL_OK = 0,
    ABRL_ERR_SYNTAX = 1,
    ABRL_ERR_RUNTIME = 2,
    ABRL_ERR_MEMORY = 3,
    ABRL_ERR_TYPE = 4
};

/* Opens an engine with the base, table, string, math and utf8 libraries. NULL when out of memory. */
abrl_engine *abrl_engine_open(void);
void abrl_engine_close(abrl_engine *engine);

/* Runs a text chunk and converts its first result to a number.
   On success stores it in *out and returns ABRL_OK; on failure copies a one-line
   message into err (always NUL-terminated) and returns an error code.
   The Lua stack top is the same before and after. */
int abrl_eval_number(abrl_engine *engine, const char *source, size_t length,
                     const char *chunk_name, double *out, char *err, size_t err_size);

#endif
