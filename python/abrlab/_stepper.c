/* abrlab._stepper: `ABREnv.step` in C, an optional extension of the package.
 *
 * A step through ctypes and Python code costs several microseconds around the library's own
 * step (well under one): the call's conversions, the lock's two method calls, building `info`
 * from a list. This object makes the same step in one C call, holding the GIL throughout, so
 * no other Python thread runs between the library's step and the reading of what it wrote.
 * It does exactly what `ABREnv.step` in Python does (a test holds the two to each other), and
 * hands anything unusual back to Python: an action that is not a plain int goes through
 * `ABREnv._level`, an error through `ErrorBuffer.raise_for`. The library is reached through
 * the address of `abrlab_env_step` that ctypes resolved, so this module links nothing of it.
 * The observation is a new array made through numpy's C API, half what `ndarray.copy` costs
 * for so small an array, and the object is called through vectorcall, without an argument tuple. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define ABRLAB_STEPPER_MAIN

#include "_stepper.h"

static void *address(PyObject *number) {
    return PyLong_AsVoidPtr(number);
}

/* The column of each key of `pairs` (a sequence of (str, int)) into a new array; the keys into `keys`. */
static Py_ssize_t *read_pairs(PyObject *pairs, PyObject **keys) {
    PyObject *sequence = PySequence_Fast(pairs, "columns must be a sequence of (name, column) pairs");
    if (sequence == NULL) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence);
    Py_ssize_t *columns = PyMem_Malloc(sizeof(Py_ssize_t) * (count ? count : 1));
    *keys = PyTuple_New(count);
    if (columns == NULL || *keys == NULL) {
        PyMem_Free(columns);
        Py_CLEAR(*keys);
        Py_DECREF(sequence);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t index = 0; index < count; index++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(sequence, index);
        PyObject *name = NULL;
        Py_ssize_t column = -1;
        if (!PyArg_ParseTuple(pair, "Un", &name, &column)) {
            PyMem_Free(columns);
            Py_CLEAR(*keys);
            Py_DECREF(sequence);
            return NULL;
        }
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        PyTuple_SET_ITEM(*keys, index, name);
        columns[index] = column;
    }
    Py_DECREF(sequence);
    return columns;
}

static PyObject *Stepper_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames);

static int Stepper_init(Stepper *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"step", "handle", "call", "errors", "capacity", "action", "reward", "flags", "record",
                            "state", "lock", "level", "raise_for", "always", "when_known", "integers", "full", "total",
                            "reset", "reset_call", "traces", "trace_names", "context", "buffer_offset", "record_length", NULL};
    PyObject *step, *handle, *call, *errors, *action, *reward, *flags, *record, *state, *lock, *level, *raise_for,
        *always, *when_known, *integers, *reset = NULL, *reset_call = NULL, *traces = NULL, *trace_names = NULL, *context = NULL;
    Py_ssize_t capacity, total = -1, buffer_offset = -1, record_length = 0;
    int full = 1;
    if (self->keys) {
        PyErr_SetString(PyExc_TypeError, "a stepper is made once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOnOOOOOOOOOOO!|pn$OOOO!Onn", names, &step, &handle, &call, &errors, &capacity,
                                     &action, &reward, &flags, &record, &state, &lock, &level, &raise_for, &always,
                                     &when_known, &PyTuple_Type, &integers, &full, &total, &reset, &reset_call, &traces,
                                     &PyTuple_Type, &trace_names, &context, &buffer_offset, &record_length))
        return -1;
    if (!full && total < 0) {
        PyErr_SetString(PyExc_ValueError, "a lean stepper needs qoe_total's record column (total)");
        return -1;
    }
    self->vectorcall = Stepper_vectorcall;
    self->full = full;
    self->total = total;
    self->step = (StepFunction)address(step);
    self->handle = address(handle);
    self->call = address(call);
    self->errors = address(errors);
    self->action = address(action);
    self->reward = address(reward);
    self->flags = address(flags);
    self->record = address(record);
    if (reset) {
        /* Reset in C: all of its arguments, or none. */
        if (!reset_call || !traces || !trace_names || !context || buffer_offset < 0 || record_length <= 0) {
            PyErr_SetString(PyExc_ValueError, "a stepper that resets needs reset_call, traces, trace_names, context, buffer_offset and record_length");
            return -1;
        }
        self->reset = (StepFunction)address(reset);
        self->reset_call = address(reset_call);
        self->traces = address(traces);
        self->context = address(context);
        self->buffer_offset = buffer_offset;
        self->record_length = record_length;
        Py_INCREF(trace_names);
        self->trace_names = trace_names;
        if (!(self->buffer_key = PyUnicode_InternFromString("buffer_s"))) return -1;
    }
    if (PyErr_Occurred()) return -1;
    if (!self->step || !self->call || !self->errors || !self->action || !self->reward || !self->flags || !self->record) {
        PyErr_SetString(PyExc_ValueError, "a stepper needs the library's step and every buffer's address");
        return -1;
    }
    self->capacity = capacity;
    if (!PyArray_Check(state) || !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)state) || !PyArray_ISALIGNED((PyArrayObject *)state)) {
        PyErr_SetString(PyExc_TypeError, "a stepper's state must be an aligned, C-contiguous numpy array");
        return -1;
    }
    Py_INCREF(state);
    self->state = (PyArrayObject *)state;
    Py_INCREF(lock);
    self->lock = lock;
    self->acquire = PyObject_GetAttrString(lock, "acquire");
    self->release = PyObject_GetAttrString(lock, "release");
    if (!self->acquire || !self->release) return -1;
    Py_INCREF(level);
    self->level = level;
    Py_INCREF(raise_for);
    self->raise_for = raise_for;
    Py_INCREF(integers);
    self->integers = integers;
    if (!(self->columns = read_pairs(always, &self->keys))) return -1;
    if (!(self->known_columns = read_pairs(when_known, &self->known_keys))) return -1;
    self->trace_key = PyUnicode_InternFromString("trace");
    self->total_key = PyUnicode_InternFromString("qoe_total");
    if (!self->trace_key || !self->total_key) return -1;
    Py_INCREF(Py_None);
    self->trace = Py_None;
    if (!(self->template = PyDict_New())) return -1;
    PyObject *groups[] = {self->keys, self->known_keys};
    for (int group = 0; group < 2; group++) {
        for (Py_ssize_t index = 0; index < PyTuple_GET_SIZE(groups[group]); index++) {
            if (PyDict_SetItem(self->template, PyTuple_GET_ITEM(groups[group], index), Py_None) < 0) return -1;
        }
    }
    return PyDict_SetItem(self->template, self->trace_key, Py_None);
}

/* The stepper holds bound methods of its environment, which holds it: a cycle the collector
 * must see through. The objects it clears, named once. */
#define STEPPER_OBJECTS(X) X(state) X(lock) X(acquire) X(release) X(level) X(integers) X(raise_for) X(trace) X(template)
#define VISIT(member) Py_VISIT(self->member);
#define CLEAR(member) Py_CLEAR(self->member);

static int Stepper_traverse(Stepper *self, visitproc visit, void *arg) {
    STEPPER_OBJECTS(VISIT)
    return 0;
}

static int Stepper_clear(Stepper *self) {
    STEPPER_OBJECTS(CLEAR)
    return 0;
}

static void Stepper_dealloc(Stepper *self) {
    PyObject_GC_UnTrack(self);
    Stepper_clear(self);
    Py_CLEAR(self->keys);
    Py_CLEAR(self->known_keys);
    Py_CLEAR(self->trace_key);
    Py_CLEAR(self->total_key);
    Py_CLEAR(self->trace_names);
    Py_CLEAR(self->buffer_key);
    PyMem_Free(self->columns);
    PyMem_Free(self->known_columns);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* `info`: the record's fields every step fills, those known, and the trace, in that order. It
 * starts as a copy of `template`, which holds every key, so it is never resized; an unknown
 * field's key is taken out again. */
static PyObject *make_info(Stepper *self) {
    PyObject *info = PyDict_Copy(self->template);
    if (info == NULL) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(self->keys);
    for (Py_ssize_t index = 0; index < count; index++) {
        PyObject *value = PyFloat_FromDouble(self->record[self->columns[index]]);
        if (value == NULL || PyDict_SetItem(info, PyTuple_GET_ITEM(self->keys, index), value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(info);
            return NULL;
        }
        Py_DECREF(value);
    }
    count = PyTuple_GET_SIZE(self->known_keys);
    for (Py_ssize_t index = 0; index < count; index++) {
        double number = self->record[self->known_columns[index]];
        PyObject *key = PyTuple_GET_ITEM(self->known_keys, index);
        PyObject *value = number == number ? PyFloat_FromDouble(number) : NULL;
        int failed = value == NULL ? (number == number || PyDict_DelItem(info, key) < 0) : PyDict_SetItem(info, key, value) < 0;
        Py_XDECREF(value);
        if (failed) {
            Py_DECREF(info);
            return NULL;
        }
    }
    if (PyDict_SetItem(info, self->trace_key, self->trace) < 0) {
        Py_DECREF(info);
        return NULL;
    }
    return info;
}

/* The lean `info`: the trace, after qoe_total on the step that ends an episode where it is known
 * (the full info's keys and values, in its order). */
static PyObject *make_lean_info(Stepper *self, int ended) {
    PyObject *info = PyDict_New();
    if (info == NULL) return NULL;
    double total = ended ? self->record[self->total] : 0.0;
    if (ended && total == total) {
        PyObject *value = PyFloat_FromDouble(total);
        if (value == NULL || PyDict_SetItem(info, self->total_key, value) < 0) {
            Py_XDECREF(value);
            Py_DECREF(info);
            return NULL;
        }
        Py_DECREF(value);
    }
    if (PyDict_SetItem(info, self->trace_key, self->trace) < 0) {
        Py_DECREF(info);
        return NULL;
    }
    return info;
}

PyObject *stepper_observation(Stepper *self) {
    /* What `state.copy()` gives: a new C-contiguous array of the state's shape and type. */
    PyArrayObject *state = self->state;
    PyObject *observation = PyArray_SimpleNew(PyArray_NDIM(state), PyArray_DIMS(state), PyArray_TYPE(state));
    if (observation == NULL) return NULL;
    memcpy(PyArray_DATA((PyArrayObject *)observation), PyArray_DATA(state), PyArray_NBYTES(state));
    return observation;
}

int stepper_hold(Stepper *self) {
    if (Py_IS_TYPE(self->lock, &abrlab_lock_type)) return abrlab_lock_take((Lock *)self->lock);
    PyObject *held = PyObject_CallNoArgs(self->acquire);
    if (held == NULL) return -1;
    Py_DECREF(held);
    return 0;
}

PyObject *stepper_let_go(Stepper *self, PyObject *result) {
    if (Py_IS_TYPE(self->lock, &abrlab_lock_type)) {
        abrlab_lock_give((Lock *)self->lock);
        return result;
    }
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyObject *released = PyObject_CallNoArgs(self->release);
    if (released == NULL) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(traceback);
        Py_XDECREF(result);
        return NULL;
    }
    Py_DECREF(released);
    PyErr_Restore(type, value, traceback);
    return result;
}

/* The step's five values, read while the lock is held. */
static PyObject *read_step(Stepper *self) {
    PyObject *observation = stepper_observation(self);
    if (observation == NULL) return NULL;
    PyObject *reward = PyFloat_FromDouble(*self->reward);
    int ended = self->flags[0] == 1 || self->flags[1] == 1;
    PyObject *info = reward == NULL ? NULL : self->full ? make_info(self) : make_lean_info(self, ended);
    if (info == NULL) {
        Py_DECREF(observation);
        Py_XDECREF(reward);
        return NULL;
    }
    PyObject *result = PyTuple_New(5);
    if (result == NULL) {
        Py_DECREF(observation);
        Py_DECREF(reward);
        Py_DECREF(info);
        return NULL;
    }
    PyObject *terminated = self->flags[0] == 1 ? Py_True : Py_False;
    PyObject *truncated = self->flags[1] == 1 ? Py_True : Py_False;
    Py_INCREF(terminated);
    Py_INCREF(truncated);
    PyTuple_SET_ITEM(result, 0, observation);
    PyTuple_SET_ITEM(result, 1, reward);
    PyTuple_SET_ITEM(result, 2, terminated);
    PyTuple_SET_ITEM(result, 3, truncated);
    PyTuple_SET_ITEM(result, 4, info);
    return result;
}

static int is_integer_scalar(Stepper *self, PyObject *action) {
    for (Py_ssize_t index = 0; index < PyTuple_GET_SIZE(self->integers); index++) {
        if ((PyObject *)Py_TYPE(action) == PyTuple_GET_ITEM(self->integers, index)) return 1;
    }
    return 0;
}

static PyObject *Stepper_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Stepper *self = (Stepper *)callable;
    if ((kwnames && PyTuple_GET_SIZE(kwnames)) || PyVectorcall_NARGS(nargsf) != 1) {
        PyErr_SetString(PyExc_TypeError, "step() takes the action only");
        return NULL;
    }
    PyObject *action = args[0];
    if (self->template == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the stepper was cleared with its environment");
        return NULL;
    }
    long long level = 0;
    int overflow = 1;
    if (PyLong_CheckExact(action)) {
        level = PyLong_AsLongLongAndOverflow(action, &overflow);
    } else if (is_integer_scalar(self, action)) {
        /* What SB3's vector environments pass: numpy's int64, taken as `_level` takes it. */
        PyObject *index = PyNumber_Index(action);
        if (index == NULL) return NULL;
        level = PyLong_AsLongLongAndOverflow(index, &overflow);
        Py_DECREF(index);
    }
    if (overflow) {
        PyObject *checked = PyObject_CallOneArg(self->level, action);
        if (checked == NULL) return NULL;
        level = PyLong_AsLongLong(checked);
        Py_DECREF(checked);
        if (level == -1 && PyErr_Occurred()) return NULL;
    }
    if (stepper_hold(self) < 0) return NULL;
    *self->action = level;
    int32_t code = self->step(self->handle, self->call, self->errors, self->capacity);
    PyObject *result = NULL;
    if (code) {
        PyObject *raised = PyObject_CallFunction(self->raise_for, "i", (int)code);
        Py_XDECREF(raised);
    } else {
        result = read_step(self);
    }
    return stepper_let_go(self, result);
}

static PyObject *Stepper_get_trace(Stepper *self, void *closure) {
    PyObject *trace = self->trace ? self->trace : Py_None;
    Py_INCREF(trace);
    return trace;
}

static int Stepper_set_trace(Stepper *self, PyObject *value, void *closure) {
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "trace cannot be deleted");
        return -1;
    }
    Py_INCREF(value);
    Py_XSETREF(self->trace, value);
    return 0;
}

static PyMethodDef Stepper_methods[] = {
    {"reset", (PyCFunction)Stepper_reset, METH_O,
     "reset(trace): the locked part of ABREnv.reset, trace the index asked for or -1 (the shuffle's next): (observation, info)"},
    {NULL},
};

static PyGetSetDef Stepper_getset[] = {
    {"trace", (getter)Stepper_get_trace, (setter)Stepper_set_trace, "info[\"trace\"] of the steps to come", NULL},
    {NULL},
};

static PyTypeObject StepperType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "abrlab._stepper.Stepper",
    .tp_doc = PyDoc_STR("step(action) of one ABREnv in one C call: (observation, reward, terminated, truncated, info)"),
    .tp_basicsize = sizeof(Stepper),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Stepper, vectorcall),
    .tp_traverse = (traverseproc)Stepper_traverse,
    .tp_clear = (inquiry)Stepper_clear,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Stepper_init,
    .tp_dealloc = (destructor)Stepper_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_getset = Stepper_getset,
    .tp_methods = Stepper_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "abrlab._stepper",
    .m_doc = PyDoc_STR("ABREnv.step in C (optional: the package steps in Python without it)"),
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__stepper(void) {
    import_array();
    if (PyType_Ready(&StepperType) < 0 || PyType_Ready(&abrlab_lock_type) < 0) return NULL;
    PyObject *created = PyModule_Create(&module);
    if (created == NULL) return NULL;
    Py_INCREF(&StepperType);
    if (PyModule_AddObject(created, "Stepper", (PyObject *)&StepperType) < 0) {
        Py_DECREF(&StepperType);
        Py_DECREF(created);
        return NULL;
    }
    Py_INCREF(&abrlab_lock_type);
    if (PyModule_AddObject(created, "Lock", (PyObject *)&abrlab_lock_type) < 0) {
        Py_DECREF(&abrlab_lock_type);
        Py_DECREF(created);
        return NULL;
    }
    return created;
}
