/* The environment's lock of abrlab._stepper (_lock.c), which a stepper takes directly. */

#ifndef ABRLAB_LOCK_H
#define ABRLAB_LOCK_H

#include <Python.h>

typedef struct {
    PyObject_HEAD
    PyThread_type_lock lock;
    int locked;
} Lock;

extern PyTypeObject abrlab_lock_type;

/* Takes the lock, waiting without the GIL; 0, or -1 with a signal's exception set. */
int abrlab_lock_take(Lock *self);

/* Gives back the lock the caller holds. */
void abrlab_lock_give(Lock *self);

#endif
