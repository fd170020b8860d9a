/* abrlab._stepper's object, shared by its step (_stepper.c) and its reset (_reset.c). */

#ifndef ABRLAB_STEPPER_H
#define ABRLAB_STEPPER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#ifndef ABRLAB_STEPPER_MAIN
/* numpy's C API table is defined in _stepper.c, which imports it. */
#define NO_IMPORT_ARRAY
#endif
#define PY_ARRAY_UNIQUE_SYMBOL abrlab_stepper_numpy_api
#include <numpy/arrayobject.h>

#include "_lock.h"

typedef int32_t (*StepFunction)(void *handle, const void *call, char *errors, Py_ssize_t capacity);

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    StepFunction step;
    void *handle;
    const void *call;
    char *errors;
    Py_ssize_t capacity;
    int64_t *action;
    const double *reward;
    const uint8_t *flags;
    const double *record;
    PyArrayObject *state;   /* the state the library writes, copied into each observation */
    PyObject *lock;         /* the environment's lock: a Lock, taken directly, or any other */
    PyObject *acquire;      /* ... whose methods, bound, take it */
    PyObject *release;
    PyObject *level;        /* ABREnv._level, bound */
    PyObject *integers;     /* numpy's integer scalar types, read as plain ints */
    PyObject *raise_for;    /* ErrorBuffer.raise_for, bound */
    PyObject *keys;         /* info's fields every step fills, a tuple of str */
    Py_ssize_t *columns;    /* their record columns */
    PyObject *known_keys;   /* fields info holds only when known (not NaN) */
    Py_ssize_t *known_columns;
    PyObject *trace;        /* info["trace"], set by reset */
    PyObject *trace_key;
    PyObject *template;     /* every key of info, in its order */
    int full;               /* info: the full record, or lean (the trace, qoe_total at the end) */
    Py_ssize_t total;       /* qoe_total's record column */
    PyObject *total_key;
    /* Reset (_reset.c): the library's reset and its call, the trace it writes and the one it is
     * asked for, the names of the traces, the context and buffer_s's place in it, the record's length. */
    StepFunction reset;
    const void *reset_call;
    int64_t *traces;
    PyObject *trace_names;
    const double *context;
    Py_ssize_t buffer_offset;
    Py_ssize_t record_length;
    PyObject *buffer_key;
} Stepper;

/* Takes the environment's lock; 0, or -1 with an exception set. */
int stepper_hold(Stepper *self);

/* Gives the lock back and answers `result`, keeping any exception set; NULL (result released)
 * when giving it back failed. */
PyObject *stepper_let_go(Stepper *self, PyObject *result);

/* A new array holding the state, as `state.copy()` makes it. */
PyObject *stepper_observation(Stepper *self);

/* `reset(trace)`: the locked part of `ABREnv.reset` (_reset.c). */
PyObject *Stepper_reset(Stepper *self, PyObject *trace);

#endif
