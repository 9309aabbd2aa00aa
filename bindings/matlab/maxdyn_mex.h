/*
 * Shared by the files of the maxdyn_mex gateway: the registry of live objects and the
 * argument helpers (maxdyn_mex_registry.c), the names commands (maxdyn_mex_names.c),
 * the sim's state and diagnostics commands (maxdyn_mex_sim.c), the queries
 * (maxdyn_mex_queries.c), collision shapes (maxdyn_mex_shapes.c), recordings
 * (maxdyn_mex_record.c) and whole-state vectors (maxdyn_mex_whole_state.c).
 * Every helper that fails raises a MATLAB/Octave error
 * (mexErrMsgIdAndTxt, which does not return), always after any maxdyn call returned.
 */
#ifndef MAXDYN_MEX_H
#define MAXDYN_MEX_H

#include <stddef.h>
#include <stdint.h>

#include "mex.h"
#include "maxdyn.h"

enum kind { KIND_BUILDER = 1, KIND_MODEL = 2, KIND_SIM = 3, KIND_RECORDER = 4 };

/* One live object. A sim keeps the dof of each joint (from its model at creation), so
 * joint arrays have the right length even after the model's handle was freed. */
typedef struct {
    uint64_t id;
    int kind;
    void *ptr;
    int32_t *dofs;
    int32_t n_joints;
} entry;

/* The registry (maxdyn_mex_registry.c): a new handle for an object (0 when out of
 * memory: the object is then freed), its MATLAB value, the count of live handles,
 * freeing one (unknown handles are ignored), freeing all at exit. */
uint64_t register_object(int kind, void *ptr, int32_t *dofs, int32_t n_joints);
mxArray *handle_out(uint64_t id);
size_t live_handles(void);
void release_object(uint64_t id);
/* Removes a live object of `kind` from the registry without freeing it and returns it
 * (raises maxdyn:handle for anything else): for a close whose status is checked. */
void *take_object(const mxArray *a, int kind);
void registry_cleanup(void);

void fail(const char *id, const char *msg);
void need_args(int nrhs, int n, const char *cmd);
double scalar_arg(const mxArray *a, const char *name);
int32_t int_arg(const mxArray *a, const char *name);
/* A real double array of exactly n elements (any shape, column-major order). */
const double *vec_arg(const mxArray *a, size_t n, const char *name);
/* The length of a real double array of any size (0 allowed); its data is mxGetPr(a). */
size_t real_array_len(const mxArray *a, const char *name);
/* The common length of two real double arrays (a joint's position and rate targets). */
size_t same_length_args(const mxArray *a, const char *a_name, const mxArray *b, const char *b_name);
entry *handle_arg(const mxArray *a, int kind);
/* Raises the maxdyn error (after the call returned) unless status is OK. */
void check(maxdyn_status status);
/* The outputs a and b of a maxdyn call that returned `status`: freed and the error raised
 * unless it is OK; b is returned only when asked for (nlhs > 1). */
void two_outputs(int nlhs, mxArray *plhs[], mxArray *a, mxArray *b, maxdyn_status status);

/* The commands of maxdyn_mex_names.c; returns 0 when `cmd` is not one of them. */
int names_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);
/* The commands of maxdyn_mex_shapes.c (collision shapes); returns 0 when `cmd` is not one of them. */
int shapes_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

/* The commands of maxdyn_mex_sim.c (whole states, step_n, contact settings, diagnostics,
 * limit outputs); returns 0 when `cmd` is not one of them. */
int sim_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

/* The commands of maxdyn_mex_queries.c (exact state, copy, Jacobians, dynamics terms,
 * input derivatives); returns 0 when `cmd` is not one of them. */
int queries_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

/* The commands of maxdyn_mex_record.c (recordings for the viewer); returns 0 when `cmd`
 * is not one of them. */
int record_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

/* The commands of maxdyn_mex_whole_state.c (configuration, generalized velocity, joint
 * inputs and servo targets as vectors, their sizes); returns 0 when `cmd` is not one of them. */
int whole_state_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

#endif
