/*
 * maxdyn_mex commands for whole-state vectors in minimal coordinates (docs/QUERIES.md,
 * "Floating bases and whole-state vectors"), one C call each:
 *
 *   [nq, nv, nu] = maxdyn_mex('model_dimensions', m)      sizes from a model
 *   [nq, nv, nu] = maxdyn_mex('sim_dimensions', s)        sizes from a sim
 *   q = maxdyn_mex('sim_configuration', s)                 nq x 1: floating bases
 *        (position, quaternion w x y z), then every joint's coordinates
 *   maxdyn_mex('sim_set_configuration', s, q)              moves the whole robot
 *   v = maxdyn_mex('sim_generalized_velocity', s)          nv x 1: bases' twists in their
 *        own axes, then every joint's rates
 *   maxdyn_mex('sim_set_generalized_velocity', s, v)
 *   u = maxdyn_mex('sim_joint_inputs', s)                  nu x 1, joint-id order
 *   maxdyn_mex('sim_set_joint_inputs', s, u)
 *   [p, v] = maxdyn_mex('sim_joint_targets', s)            nu x 1 each: servo targets
 *   maxdyn_mex('sim_set_joint_targets', s, p, v)
 *
 * A vector's length is passed to C as given, so a wrong one is the library's
 * MAXDYN_STATUS_WRONG_LENGTH (maxdyn:status11), and nothing changes.
 */

#include <string.h>

#include "maxdyn_mex.h"

static maxdyn_sim *sim_of(const mxArray *a) { return (maxdyn_sim *)handle_arg(a, KIND_SIM)->ptr; }

static void dimensions_out(int nlhs, mxArray *plhs[], size_t nq, size_t nv, size_t nu) {
    plhs[0] = mxCreateDoubleScalar((double)nq);
    if (nlhs > 1) plhs[1] = mxCreateDoubleScalar((double)nv);
    if (nlhs > 2) plhs[2] = mxCreateDoubleScalar((double)nu);
}

/* Which of (nq, nv, nu) a vector command reads and writes: 0, 1, 2. */
static size_t size_of(maxdyn_sim *s, int which) {
    size_t d[3] = {0, 0, 0};
    check(maxdyn_sim_get_dimensions(s, &d[0], &d[1], &d[2]));
    return d[which];
}

typedef maxdyn_status (*getter)(const maxdyn_sim *, double *, size_t);
typedef maxdyn_status (*setter)(maxdyn_sim *, const double *, size_t);

static void get_vector(mxArray *plhs[], maxdyn_sim *s, int which, getter get) {
    size_t n = size_of(s, which);
    mxArray *out = mxCreateDoubleMatrix(n, 1, mxREAL);
    maxdyn_status st = get(s, mxGetPr(out), n);
    if (st != MAXDYN_STATUS_OK) mxDestroyArray(out);
    check(st);
    plhs[0] = out;
}

static void set_vector(maxdyn_sim *s, const mxArray *a, const char *name, setter set) {
    size_t n = real_array_len(a, name);
    check(set(s, mxGetPr(a), n));
}

int whole_state_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "model_dimensions")) {
        size_t nq = 0, nv = 0, nu = 0;
        need_args(nrhs, 2, cmd);
        check(maxdyn_model_get_dimensions((const maxdyn_model *)handle_arg(prhs[1], KIND_MODEL)->ptr, &nq, &nv, &nu));
        dimensions_out(nlhs, plhs, nq, nv, nu);
    } else if (!strcmp(cmd, "sim_dimensions")) {
        size_t nq = 0, nv = 0, nu = 0;
        need_args(nrhs, 2, cmd);
        check(maxdyn_sim_get_dimensions(sim_of(prhs[1]), &nq, &nv, &nu));
        dimensions_out(nlhs, plhs, nq, nv, nu);
    } else if (!strcmp(cmd, "sim_configuration")) {
        need_args(nrhs, 2, cmd);
        get_vector(plhs, sim_of(prhs[1]), 0, maxdyn_sim_get_configuration);
    } else if (!strcmp(cmd, "sim_set_configuration")) {
        need_args(nrhs, 3, cmd);
        set_vector(sim_of(prhs[1]), prhs[2], "q", maxdyn_sim_set_configuration);
    } else if (!strcmp(cmd, "sim_generalized_velocity")) {
        need_args(nrhs, 2, cmd);
        get_vector(plhs, sim_of(prhs[1]), 1, maxdyn_sim_get_generalized_velocity);
    } else if (!strcmp(cmd, "sim_set_generalized_velocity")) {
        need_args(nrhs, 3, cmd);
        set_vector(sim_of(prhs[1]), prhs[2], "v", maxdyn_sim_set_generalized_velocity);
    } else if (!strcmp(cmd, "sim_joint_inputs")) {
        need_args(nrhs, 2, cmd);
        get_vector(plhs, sim_of(prhs[1]), 2, maxdyn_sim_get_joint_inputs);
    } else if (!strcmp(cmd, "sim_set_joint_inputs")) {
        need_args(nrhs, 3, cmd);
        set_vector(sim_of(prhs[1]), prhs[2], "u", maxdyn_sim_set_joint_inputs);
    } else if (!strcmp(cmd, "sim_joint_targets")) {
        maxdyn_sim *s;
        size_t n;
        mxArray *p, *v;
        need_args(nrhs, 2, cmd);
        s = sim_of(prhs[1]);
        n = size_of(s, 2);
        p = mxCreateDoubleMatrix(n, 1, mxREAL);
        v = mxCreateDoubleMatrix(n, 1, mxREAL);
        two_outputs(nlhs, plhs, p, v, maxdyn_sim_get_joint_targets(s, mxGetPr(p), mxGetPr(v), n));
    } else if (!strcmp(cmd, "sim_set_joint_targets")) {
        size_t n;
        need_args(nrhs, 4, cmd);
        n = same_length_args(prhs[2], "position", prhs[3], "velocity");
        check(maxdyn_sim_set_joint_targets(sim_of(prhs[1]), mxGetPr(prhs[2]), mxGetPr(prhs[3]), n));
    } else {
        return 0;
    }
    return 1;
}
