/* abrlab._stepper.Lock: an environment's lock (`NativeEnvironment.lock` where the extension is
 * built). It does what `threading.Lock` does for `with`, `acquire()` and `release()`, and a
 * stepper takes and gives it back directly, without two Python calls a step. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_lock.h"

/* Takes the lock: at once when it is free; else waiting without the GIL, a while at a time,
 * so a signal (Ctrl-C) still reaches Python. 0, or -1 with the signal's exception set. */
int abrlab_lock_take(Lock *self) {
    if (!PyThread_acquire_lock(self->lock, NOWAIT_LOCK)) {
        while (1) {
            PyLockStatus status;
            Py_BEGIN_ALLOW_THREADS
            status = PyThread_acquire_lock_timed(self->lock, 50000, 0);
            Py_END_ALLOW_THREADS
            if (status == PY_LOCK_ACQUIRED) break;
            if (PyErr_CheckSignals() < 0) return -1;
        }
    }
    self->locked = 1;
    return 0;
}

void abrlab_lock_give(Lock *self) {
    self->locked = 0;
    PyThread_release_lock(self->lock);
}

static PyObject *Lock_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    if ((args && PyTuple_GET_SIZE(args)) || (kwargs && PyDict_GET_SIZE(kwargs))) {
        PyErr_SetString(PyExc_TypeError, "Lock() takes no arguments");
        return NULL;
    }
    Lock *self = (Lock *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_MemoryError, "cannot allocate a lock");
        return NULL;
    }
    return (PyObject *)self;
}

static void Lock_dealloc(Lock *self) {
    if (self->lock) {
        if (self->locked) PyThread_release_lock(self->lock);
        PyThread_free_lock(self->lock);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Lock_acquire(Lock *self, PyObject *unused) {
    if (abrlab_lock_take(self) < 0) return NULL;
    Py_RETURN_TRUE;
}

static PyObject *Lock_release(Lock *self, PyObject *unused) {
    if (!self->locked) {
        PyErr_SetString(PyExc_RuntimeError, "release unlocked lock");
        return NULL;
    }
    abrlab_lock_give(self);
    Py_RETURN_NONE;
}

static PyObject *Lock_exit(Lock *self, PyObject *const *args, Py_ssize_t count) {
    return Lock_release(self, NULL);
}

static PyObject *Lock_locked(Lock *self, PyObject *unused) {
    return PyBool_FromLong(self->locked);
}

static PyMethodDef Lock_methods[] = {
    {"acquire", (PyCFunction)Lock_acquire, METH_NOARGS, "Waits for the lock and takes it; True."},
    {"release", (PyCFunction)Lock_release, METH_NOARGS, "Gives the lock back; RuntimeError when it is not held."},
    {"locked", (PyCFunction)Lock_locked, METH_NOARGS, "Whether the lock is held."},
    {"__enter__", (PyCFunction)Lock_acquire, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)(void (*)(void))Lock_exit, METH_FASTCALL, NULL},
    {NULL},
};

PyTypeObject abrlab_lock_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "abrlab._stepper.Lock",
    .tp_doc = PyDoc_STR("Lock(): an environment's lock, taken and given back by a stepper without Python calls"),
    .tp_basicsize = sizeof(Lock),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Lock_new,
    .tp_dealloc = (destructor)Lock_dealloc,
    .tp_methods = Lock_methods,
};
