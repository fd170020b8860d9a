/* abrlab._stepper's reset: what `ABREnv.reset` does once it knows the trace and the shuffle is
 * seeded, in one C call under the environment's lock. A reset every episode cost more than
 * a tenth of a step in Python. `ABREnv.reset` stays the reference, and a test holds the two
 * to each other. */

#include <math.h>

#include "_stepper.h"

PyObject *Stepper_reset(Stepper *self, PyObject *trace) {
    if (self->reset == NULL || self->template == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this stepper does not reset");
        return NULL;
    }
    long long asked = PyLong_AsLongLong(trace);
    if (asked == -1 && PyErr_Occurred()) return NULL;
    if (stepper_hold(self) < 0) return NULL;
    self->traces[1] = asked;
    int32_t code = self->reset(self->handle, self->reset_call, self->errors, self->capacity);
    PyObject *result = NULL;
    if (code) {
        PyObject *raised = PyObject_CallFunction(self->raise_for, "i", (int)code);
        Py_XDECREF(raised);
        return stepper_let_go(self, NULL);
    }
    /* No step of this episode yet: last_info() answers with the reset's info. */
    double *record = (double *)self->record;
    for (Py_ssize_t column = 0; column < self->record_length; column++) record[column] = NAN;
    int64_t index = self->traces[0];
    if (index < 0 || index >= PyTuple_GET_SIZE(self->trace_names)) {
        PyErr_Format(PyExc_RuntimeError, "the library reset to trace %lld of %zd", (long long)index, PyTuple_GET_SIZE(self->trace_names));
        return stepper_let_go(self, NULL);
    }
    PyObject *name = PyTuple_GET_ITEM(self->trace_names, index);
    Py_INCREF(name);
    Py_XSETREF(self->trace, name);
    PyObject *observation = stepper_observation(self);
    PyObject *buffer = observation ? PyFloat_FromDouble(self->context[self->buffer_offset]) : NULL;
    PyObject *info = buffer ? PyDict_New() : NULL;
    if (info && PyDict_SetItem(info, self->trace_key, name) == 0 && PyDict_SetItem(info, self->buffer_key, buffer) == 0) {
        result = PyTuple_Pack(2, observation, info);
    }
    Py_XDECREF(observation);
    Py_XDECREF(buffer);
    Py_XDECREF(info);
    return stepper_let_go(self, result);
}
