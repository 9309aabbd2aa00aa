/*
 * maxdyn_mex commands on a sim's whole state, stepping in C, contact settings,
 * diagnostics and limit outputs:
 *
 *   maxdyn_mex('sim_step_n', s, n)                       n steps in C (maxdyn_sim_step_n)
 *   X = maxdyn_mex('sim_get_body_states', s, nBodies)    13 x nBodies, one column per body
 *   maxdyn_mex('sim_set_body_states', s, X)              X: 13 x nBodies; all or nothing
 *   dt = maxdyn_mex('sim_dt', s), n = maxdyn_mex('sim_step_count', s)
 *   maxdyn_mex('sim_contact_tolerance', s) / ('sim_set_contact_tolerance', s, value)
 *   maxdyn_mex('sim_contact_margin', s) / ('sim_set_contact_margin', s, value)
 *   r = maxdyn_mex('sim_constraint_rank', s)             [rows rank redundant dof]
 *   [j, v] = maxdyn_mex('sim_joint_violation', s)         worst joint (-1: none), violation
 *   v = maxdyn_mex('sim_assemble', s)                     violation removed
 *   e = maxdyn_mex('sim_spring_energy', s)
 *   maxdyn_mex('sim_limit_count', s), l = maxdyn_mex('sim_limit', s, id)   5x1
 *   maxdyn_mex('sim_limit_violation', s), maxdyn_mex('sim_mimic_violation', s)
 *
 * Ids are the C API's (0-based).
 */

#include <string.h>

#include "maxdyn_mex.h"

static maxdyn_sim *sim_arg(const mxArray *a) { return (maxdyn_sim *)handle_arg(a, KIND_SIM)->ptr; }

typedef maxdyn_status (*sim_double_getter)(const maxdyn_sim *, double *);
typedef maxdyn_status (*sim_double_setter)(maxdyn_sim *, double);

static void states_out(mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    maxdyn_sim *s;
    int32_t n;
    mxArray *out;
    maxdyn_status st;
    need_args(nrhs, 3, "sim_get_body_states");
    s = sim_arg(prhs[1]);
    n = int_arg(prhs[2], "nBodies");
    if (n < 0) fail("maxdyn:arguments", "argument `nBodies` must be >= 0");
    out = mxCreateDoubleMatrix(MAXDYN_BODY_STATE_SIZE, (size_t)n, mxREAL);
    st = maxdyn_sim_get_body_states(s, mxGetPr(out), (size_t)n);
    if (st != MAXDYN_STATUS_OK) mxDestroyArray(out);
    check(st);
    plhs[0] = out;
}

static void states_in(int nrhs, const mxArray *prhs[]) {
    maxdyn_sim *s;
    size_t len;
    need_args(nrhs, 3, "sim_set_body_states");
    s = sim_arg(prhs[1]);
    len = real_array_len(prhs[2], "states");
    if (mxGetM(prhs[2]) != MAXDYN_BODY_STATE_SIZE && len != 0)
        fail("maxdyn:arguments", "argument `states` must be 13 x nBodies (one column per body)");
    check(maxdyn_sim_set_body_states(s, mxGetPr(prhs[2]), len / MAXDYN_BODY_STATE_SIZE));
}

static void rank_out(mxArray *plhs[], const mxArray *prhs[]) {
    int32_t rows = 0, rank = 0, redundant = 0, dof = 0;
    double *o;
    check(maxdyn_sim_get_constraint_rank(sim_arg(prhs[1]), &rows, &rank, &redundant, &dof));
    plhs[0] = mxCreateDoubleMatrix(1, 4, mxREAL);
    o = mxGetPr(plhs[0]);
    o[0] = rows; o[1] = rank; o[2] = redundant; o[3] = dof;
}

static void limit_out(mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    mxArray *out;
    maxdyn_status st;
    need_args(nrhs, 3, "sim_limit");
    out = mxCreateDoubleMatrix(MAXDYN_LIMIT_SIZE, 1, mxREAL);
    st = maxdyn_sim_get_limit(sim_arg(prhs[1]), int_arg(prhs[2], "limit"), mxGetPr(out));
    if (st != MAXDYN_STATUS_OK) mxDestroyArray(out);
    check(st);
    plhs[0] = out;
}

static void double_out(mxArray *plhs[], const mxArray *prhs[], sim_double_getter get) {
    double v = 0.0;
    check(get(sim_arg(prhs[1]), &v));
    plhs[0] = mxCreateDoubleScalar(v);
}

int sim_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    static const struct { const char *cmd; sim_double_getter get; } getters[] = {
        {"sim_dt", maxdyn_sim_get_dt},
        {"sim_contact_tolerance", maxdyn_sim_get_contact_tolerance},
        {"sim_contact_margin", maxdyn_sim_get_contact_margin},
        {"sim_spring_energy", maxdyn_sim_get_spring_energy},
        {"sim_limit_violation", maxdyn_sim_get_limit_violation},
        {"sim_mimic_violation", maxdyn_sim_get_mimic_violation},
    };
    static const struct { const char *cmd; sim_double_setter set; const char *arg; } setters[] = {
        {"sim_set_contact_tolerance", maxdyn_sim_set_contact_tolerance, "tolerance"},
        {"sim_set_contact_margin", maxdyn_sim_set_contact_margin, "margin"},
    };
    size_t k;
    (void)nlhs;
    if (strncmp(cmd, "sim_", 4) != 0) return 0;
    for (k = 0; k < sizeof getters / sizeof getters[0]; k++) {
        if (!strcmp(cmd, getters[k].cmd)) {
            need_args(nrhs, 2, cmd);
            double_out(plhs, prhs, getters[k].get);
            return 1;
        }
    }
    for (k = 0; k < sizeof setters / sizeof setters[0]; k++) {
        if (!strcmp(cmd, setters[k].cmd)) {
            need_args(nrhs, 3, cmd);
            check(setters[k].set(sim_arg(prhs[1]), scalar_arg(prhs[2], setters[k].arg)));
            return 1;
        }
    }
    if (!strcmp(cmd, "sim_step_n")) {
        need_args(nrhs, 3, cmd);
        check(maxdyn_sim_step_n(sim_arg(prhs[1]), int_arg(prhs[2], "n")));
    } else if (!strcmp(cmd, "sim_get_body_states")) {
        states_out(plhs, nrhs, prhs);
    } else if (!strcmp(cmd, "sim_set_body_states")) {
        states_in(nrhs, prhs);
    } else if (!strcmp(cmd, "sim_step_count")) {
        uint64_t n = 0;
        need_args(nrhs, 2, cmd);
        check(maxdyn_sim_get_step_count(sim_arg(prhs[1]), &n));
        plhs[0] = mxCreateDoubleScalar((double)n);
    } else if (!strcmp(cmd, "sim_constraint_rank")) {
        need_args(nrhs, 2, cmd);
        rank_out(plhs, prhs);
    } else if (!strcmp(cmd, "sim_joint_violation")) {
        int32_t j = -1;
        double v = 0.0;
        need_args(nrhs, 2, cmd);
        check(maxdyn_sim_get_joint_violation(sim_arg(prhs[1]), &j, &v));
        plhs[0] = mxCreateDoubleScalar(j);
        if (nlhs > 1) plhs[1] = mxCreateDoubleScalar(v);
    } else if (!strcmp(cmd, "sim_assemble")) {
        double v = 0.0;
        need_args(nrhs, 2, cmd);
        check(maxdyn_sim_assemble(sim_arg(prhs[1]), &v));
        plhs[0] = mxCreateDoubleScalar(v);
    } else if (!strcmp(cmd, "sim_limit_count")) {
        int32_t n = 0;
        need_args(nrhs, 2, cmd);
        check(maxdyn_sim_get_limit_count(sim_arg(prhs[1]), &n));
        plhs[0] = mxCreateDoubleScalar(n);
    } else if (!strcmp(cmd, "sim_limit")) {
        limit_out(plhs, nrhs, prhs);
    } else {
        return 0;
    }
    return 1;
}
