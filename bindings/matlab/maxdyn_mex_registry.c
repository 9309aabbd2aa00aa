/*
 * The registry of the maxdyn_mex gateway's live objects (handles are uint64 ids into it,
 * never raw pointers) and the argument helpers that every command file uses. Declared in
 * maxdyn_mex.h; the command files (maxdyn_mex.c, maxdyn_mex_names.c) call into this one,
 * never the other way.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex.h"
#include "maxdyn.h"
#include "maxdyn_mex.h"

static const char *kind_name(int kind) {
    switch (kind) {
    case KIND_BUILDER: return "builder";
    case KIND_MODEL: return "model";
    case KIND_RECORDER: return "recorder";
    default: return "sim";
    }
}

static entry *registry = NULL;
static size_t registry_len = 0, registry_cap = 0;
static uint64_t next_id = 1;

static void free_object(entry *e) {
    switch (e->kind) {
    case KIND_BUILDER: maxdyn_builder_free((maxdyn_builder *)e->ptr); break;
    case KIND_MODEL: maxdyn_model_free((maxdyn_model *)e->ptr); break;
    case KIND_SIM: maxdyn_sim_free((maxdyn_sim *)e->ptr); break;
    case KIND_RECORDER: maxdyn_recorder_close((maxdyn_recorder *)e->ptr); break;
    }
    free(e->dofs);
    e->dofs = NULL;
}

/* Frees everything at `clear mex` or exit. */
void registry_cleanup(void) {
    size_t i;
    for (i = 0; i < registry_len; i++) free_object(&registry[i]);
    free(registry);
    registry = NULL;
    registry_len = registry_cap = 0;
}

/* Registers a new object; returns its handle, or 0 when out of memory (the object is
 * then freed). */
uint64_t register_object(int kind, void *ptr, int32_t *dofs, int32_t n_joints) {
    entry e;
    if (registry_len == registry_cap) {
        size_t cap = registry_cap ? 2 * registry_cap : 16;
        entry *grown = (entry *)realloc(registry, cap * sizeof(entry));
        if (!grown) {
            e.kind = kind; e.ptr = ptr; e.dofs = dofs;
            free_object(&e);
            return 0;
        }
        registry = grown;
        registry_cap = cap;
    }
    e.id = next_id++;
    e.kind = kind;
    e.ptr = ptr;
    e.dofs = dofs;
    e.n_joints = n_joints;
    registry[registry_len++] = e;
    return e.id;
}

static size_t find_index(uint64_t id) {
    size_t i;
    for (i = 0; i < registry_len; i++)
        if (registry[i].id == id) return i;
    return (size_t)-1;
}

size_t live_handles(void) { return registry_len; }

void release_object(uint64_t id) {
    size_t i = find_index(id);
    if (i != (size_t)-1) {
        free_object(&registry[i]);
        registry[i] = registry[--registry_len];
    }
}

void *take_object(const mxArray *a, int kind) {
    entry *e = handle_arg(a, kind);
    size_t i = (size_t)(e - registry);
    void *ptr = e->ptr;
    free(e->dofs);
    registry[i] = registry[--registry_len];
    return ptr;
}

/* ---- argument helpers (all errors raised here happen before any maxdyn call) */

void fail(const char *id, const char *msg) { mexErrMsgIdAndTxt(id, "%s", msg); }

void need_args(int nrhs, int n, const char *cmd) {
    char msg[160];
    if (nrhs < n) {
        snprintf(msg, sizeof msg, "maxdyn_mex('%s', ...) needs %d arguments after the command", cmd, n - 1);
        fail("maxdyn:arguments", msg);
    }
}

double scalar_arg(const mxArray *a, const char *name) {
    char msg[160];
    if (!mxIsDouble(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != 1) {
        snprintf(msg, sizeof msg, "argument `%s` must be a real double scalar", name);
        fail("maxdyn:arguments", msg);
    }
    return mxGetScalar(a);
}

int32_t int_arg(const mxArray *a, const char *name) {
    char msg[160];
    double v = scalar_arg(a, name);
    if (!(v >= -2147483648.0 && v <= 2147483647.0) || v != (double)(int32_t)v) {
        snprintf(msg, sizeof msg, "argument `%s` must be an integer", name);
        fail("maxdyn:arguments", msg);
    }
    return (int32_t)v;
}

/* A real double array of exactly n elements (any shape, column-major order). */
const double *vec_arg(const mxArray *a, size_t n, const char *name) {
    char msg[160];
    if (!mxIsDouble(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != n) {
        snprintf(msg, sizeof msg, "argument `%s` must be a real double array of %u elements", name, (unsigned)n);
        fail("maxdyn:arguments", msg);
    }
    return mxGetPr(a);
}

/* The length of a real double array of any size (0 allowed); its data is mxGetPr(a). */
size_t real_array_len(const mxArray *a, const char *name) {
    char msg[160];
    if (!mxIsDouble(a) || mxIsComplex(a)) {
        snprintf(msg, sizeof msg, "argument `%s` must be a real double array", name);
        fail("maxdyn:arguments", msg);
    }
    return mxGetNumberOfElements(a);
}

entry *handle_arg(const mxArray *a, int kind) {
    char msg[160];
    size_t i;
    uint64_t id;
    if (!mxIsUint64(a) || mxGetNumberOfElements(a) != 1) {
        snprintf(msg, sizeof msg, "expected a maxdyn %s handle (uint64 scalar)", kind_name(kind));
        fail("maxdyn:handle", msg);
    }
    id = *(const uint64_t *)mxGetData(a);
    i = find_index(id);
    if (i == (size_t)-1 || registry[i].kind != kind) {
        snprintf(msg, sizeof msg, "%llu is not a live maxdyn %s handle", (unsigned long long)id, kind_name(kind));
        fail("maxdyn:handle", msg);
    }
    return &registry[i];
}

mxArray *handle_out(uint64_t id) {
    mxArray *m = mxCreateNumericMatrix(1, 1, mxUINT64_CLASS, mxREAL);
    *(uint64_t *)mxGetData(m) = id;
    return m;
}

/* Raises the maxdyn error (after the call returned) unless status is OK. */
size_t same_length_args(const mxArray *a, const char *a_name, const mxArray *b, const char *b_name) {
    char msg[160];
    size_t n = real_array_len(a, a_name);
    if (real_array_len(b, b_name) != n) {
        snprintf(msg, sizeof msg, "arguments `%s` and `%s` must have the same length", a_name, b_name);
        fail("maxdyn:arguments", msg);
    }
    return n;
}

void two_outputs(int nlhs, mxArray *plhs[], mxArray *a, mxArray *b, maxdyn_status status) {
    if (status != MAXDYN_STATUS_OK) {
        mxDestroyArray(a);
        mxDestroyArray(b);
    }
    check(status);
    plhs[0] = a;
    if (nlhs > 1) plhs[1] = b; else mxDestroyArray(b);
}

void check(maxdyn_status status) {
    char msg[1024];
    char id[64];
    if (status == MAXDYN_STATUS_OK) return;
    snprintf(msg, sizeof msg, "%s (%s)", maxdyn_last_error_message(), maxdyn_status_string(status));
    snprintf(id, sizeof id, "maxdyn:status%d", (int)status);
    mexErrMsgIdAndTxt(id, "%s", msg);
}
