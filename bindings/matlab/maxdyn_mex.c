/*
 * maxdyn_mex: one MEX gateway for MATLAB and GNU Octave, switching on a command string:
 *
 *   h = maxdyn_mex('builder_new');  id = maxdyn_mex('builder_add_body', h, mass, J);  ...
 *
 * Handles are uint64 scalars that index a registry of live objects (never raw
 * pointers), so a stale or forged handle gives an error, not a crash. Ids of bodies and
 * joints are the C API's (0-based; the world is -1). Every error is raised with
 * mexErrMsgIdAndTxt only after the maxdyn call has returned (mexErrMsgIdAndTxt does not
 * return; it must never unwind through Rust frames). Only mx/mex functions that both
 * MATLAB and Octave provide are used (mxGetPr, not the R2018a interleaved API).
 *
 * The commands on the model's names and structure and on limits, mimics and frames are
 * in maxdyn_mex_names.c; the registry of handles and the argument helpers both use are
 * in maxdyn_mex_registry.c, declared in maxdyn_mex.h.
 *
 * Build (Octave): mkoctfile --mex -I<repo>/include maxdyn_mex*.c -L<lib dir> -lmaxdyn
 * Build (MATLAB): mex -I<repo>/include maxdyn_mex*.c -L<lib dir> -lmaxdyn
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex.h"
#include "maxdyn.h"
#include "maxdyn_mex.h"

static int32_t joint_dof(entry *sim, int32_t joint) {
    return (joint >= 0 && joint < sim->n_joints) ? sim->dofs[joint] : 0;
}

/* ---- commands */

static void cmd_sim_new(int nlhs, mxArray *plhs[], const mxArray *prhs[]) {
    entry *m = handle_arg(prhs[1], KIND_MODEL);
    double dt = scalar_arg(prhs[2], "dt");
    maxdyn_model *model = (maxdyn_model *)m->ptr;
    maxdyn_sim *sim = NULL;
    int32_t n = 0, j, *dofs;
    uint64_t h;
    maxdyn_status st = maxdyn_model_get_joint_count(model, &n);
    check(st);
    dofs = (int32_t *)calloc(n > 0 ? (size_t)n : 1, sizeof(int32_t));
    if (!dofs) fail("maxdyn:memory", "out of memory");
    for (j = 0; j < n; j++) {
        st = maxdyn_model_get_joint_dof(model, j, &dofs[j]);
        if (st != MAXDYN_STATUS_OK) { free(dofs); check(st); }
    }
    st = maxdyn_sim_new(model, dt, &sim);
    if (st != MAXDYN_STATUS_OK) { free(dofs); check(st); }
    h = register_object(KIND_SIM, sim, dofs, n);
    if (!h) fail("maxdyn:memory", "out of memory");
    (void)nlhs;
    plhs[0] = handle_out(h);
}

static void cmd_joint_get(mxArray *plhs[], const mxArray *prhs[], int velocity) {
    entry *s = handle_arg(prhs[1], KIND_SIM);
    int32_t joint = int_arg(prhs[2], "joint");
    int32_t n = joint_dof(s, joint);
    mxArray *out = mxCreateDoubleMatrix((size_t)n, 1, mxREAL);
    maxdyn_status st = velocity
        ? maxdyn_sim_get_joint_velocity((maxdyn_sim *)s->ptr, joint, mxGetPr(out), (size_t)n)
        : maxdyn_sim_get_joint_position((maxdyn_sim *)s->ptr, joint, mxGetPr(out), (size_t)n);
    if (st != MAXDYN_STATUS_OK) mxDestroyArray(out);
    check(st);
    plhs[0] = out;
}

static void cmd_joint_set(const mxArray *prhs[], int velocity) {
    entry *s = handle_arg(prhs[1], KIND_SIM);
    int32_t joint = int_arg(prhs[2], "joint");
    const mxArray *v = prhs[3];
    size_t n;
    if (!mxIsDouble(v) || mxIsComplex(v)) fail("maxdyn:arguments", "argument `values` must be a real double array");
    n = mxGetNumberOfElements(v);
    check(velocity ? maxdyn_sim_set_joint_velocity((maxdyn_sim *)s->ptr, joint, mxGetPr(v), n)
                   : maxdyn_sim_set_joint_position((maxdyn_sim *)s->ptr, joint, mxGetPr(v), n));
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    char cmd[64];
    static int registered = 0;
    if (!registered) {
        mexAtExit(registry_cleanup);
        registered = 1;
    }
    if (nrhs < 1 || !mxIsChar(prhs[0]) || mxGetString(prhs[0], cmd, sizeof cmd) != 0)
        fail("maxdyn:arguments", "the first argument must be a command string");

    if (!strcmp(cmd, "version")) {
        plhs[0] = mxCreateString(maxdyn_version());
    } else if (!strcmp(cmd, "live_objects")) {
        plhs[0] = mxCreateDoubleScalar((double)maxdyn_debug_live_objects());
    } else if (!strcmp(cmd, "handle_count")) {
        plhs[0] = mxCreateDoubleScalar((double)live_handles());
    } else if (!strcmp(cmd, "free")) {
        /* frees any handle; unknown or already freed handles are ignored (as free(NULL)) */
        need_args(nrhs, 2, cmd);
        if (!mxIsUint64(prhs[1]) || mxGetNumberOfElements(prhs[1]) != 1) fail("maxdyn:handle", "expected a uint64 handle");
        release_object(*(const uint64_t *)mxGetData(prhs[1]));
    } else if (!strcmp(cmd, "builder_new")) {
        maxdyn_builder *b = NULL;
        uint64_t h;
        check(maxdyn_builder_new(&b));
        h = register_object(KIND_BUILDER, b, NULL, 0);
        if (!h) fail("maxdyn:memory", "out of memory");
        plhs[0] = handle_out(h);
    } else if (!strcmp(cmd, "builder_from_urdf")) {
        char path[4096];
        maxdyn_builder *b = NULL;
        uint64_t h;
        int32_t floating;
        need_args(nrhs, 3, cmd);
        if (!mxIsChar(prhs[1]) || mxGetString(prhs[1], path, sizeof path) != 0) fail("maxdyn:arguments", "argument `path` must be a string");
        floating = int_arg(prhs[2], "floating");
        check(maxdyn_builder_from_urdf(path, floating, &b));
        h = register_object(KIND_BUILDER, b, NULL, 0);
        if (!h) fail("maxdyn:memory", "out of memory");
        plhs[0] = handle_out(h);
    } else if (!strcmp(cmd, "builder_set_gravity")) {
        entry *b;
        need_args(nrhs, 3, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_set_gravity((maxdyn_builder *)b->ptr, vec_arg(prhs[2], 3, "g")));
    } else if (!strcmp(cmd, "builder_add_body")) {
        entry *b;
        int32_t id = -1;
        const double *jm;
        double rowmajor[9];
        int r, c;
        need_args(nrhs, 4, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        jm = vec_arg(prhs[3], 9, "inertia");
        /* MATLAB stores column-major; the C API wants row-major (same for a symmetric J) */
        for (r = 0; r < 3; r++)
            for (c = 0; c < 3; c++) rowmajor[3 * r + c] = jm[3 * c + r];
        check(maxdyn_builder_add_body((maxdyn_builder *)b->ptr, scalar_arg(prhs[2], "mass"), rowmajor, &id));
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "builder_set_body_pose")) {
        entry *b;
        need_args(nrhs, 5, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_set_body_pose((maxdyn_builder *)b->ptr, int_arg(prhs[2], "body"), vec_arg(prhs[3], 3, "x"), vec_arg(prhs[4], 4, "q")));
    } else if (!strcmp(cmd, "builder_set_body_velocity")) {
        entry *b;
        need_args(nrhs, 5, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_set_body_velocity((maxdyn_builder *)b->ptr, int_arg(prhs[2], "body"), vec_arg(prhs[3], 3, "v"), vec_arg(prhs[4], 3, "omega")));
    } else if (!strcmp(cmd, "builder_add_joint")) {
        entry *b;
        int32_t id = -1;
        need_args(nrhs, 8, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_add_joint((maxdyn_builder *)b->ptr, int_arg(prhs[2], "type"), int_arg(prhs[3], "parent"),
                                       int_arg(prhs[4], "child"), vec_arg(prhs[5], 3, "p_parent"),
                                       vec_arg(prhs[6], 3, "p_child"), vec_arg(prhs[7], 3, "axis"), &id));
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "builder_set_joint_offset")) {
        entry *b;
        need_args(nrhs, 4, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_set_joint_offset((maxdyn_builder *)b->ptr, int_arg(prhs[2], "joint"), vec_arg(prhs[3], 4, "q")));
    } else if (!strcmp(cmd, "builder_body_count") || !strcmp(cmd, "builder_joint_count")) {
        entry *b;
        int32_t n = 0;
        need_args(nrhs, 2, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(cmd[8] == 'b' ? maxdyn_builder_get_body_count((maxdyn_builder *)b->ptr, &n)
                            : maxdyn_builder_get_joint_count((maxdyn_builder *)b->ptr, &n));
        plhs[0] = mxCreateDoubleScalar(n);
    } else if (!strcmp(cmd, "builder_add_ground_contact")) {
        entry *b;
        int32_t id = -1;
        need_args(nrhs, 6, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_add_ground_contact((maxdyn_builder *)b->ptr, int_arg(prhs[2], "body"), vec_arg(prhs[3], 3, "p"),
                                                scalar_arg(prhs[4], "radius"), scalar_arg(prhs[5], "friction"), &id));
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "builder_add_plane_contact")) {
        entry *b;
        int32_t id = -1;
        need_args(nrhs, 8, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_add_plane_contact((maxdyn_builder *)b->ptr, int_arg(prhs[2], "body"), vec_arg(prhs[3], 3, "p"),
                                               scalar_arg(prhs[4], "radius"), vec_arg(prhs[5], 3, "normal"),
                                               scalar_arg(prhs[6], "offset"), scalar_arg(prhs[7], "friction"), &id));
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "builder_add_sphere_contact")) {
        entry *b;
        int32_t id = -1;
        need_args(nrhs, 9, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_add_sphere_contact((maxdyn_builder *)b->ptr, int_arg(prhs[2], "body_a"), vec_arg(prhs[3], 3, "pa"),
                                                scalar_arg(prhs[4], "ra"), int_arg(prhs[5], "body_b"), vec_arg(prhs[6], 3, "pb"),
                                                scalar_arg(prhs[7], "rb"), scalar_arg(prhs[8], "friction"), &id));
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "builder_set_contact_cone")) {
        entry *b;
        need_args(nrhs, 5, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_set_contact_cone((maxdyn_builder *)b->ptr, int_arg(prhs[2], "contact"),
                                              int_arg(prhs[3], "cone_type"), int_arg(prhs[4], "directions")));
    } else if (!strcmp(cmd, "builder_contact_count")) {
        entry *b;
        int32_t n = 0;
        need_args(nrhs, 2, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_get_contact_count((maxdyn_builder *)b->ptr, &n));
        plhs[0] = mxCreateDoubleScalar(n);
    } else if (!strcmp(cmd, "builder_set_joint_spring")) {
        entry *b;
        size_t n;
        need_args(nrhs, 5, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        n = real_array_len(prhs[3], "stiffness");
        check(maxdyn_builder_set_joint_spring((maxdyn_builder *)b->ptr, int_arg(prhs[2], "joint"), mxGetPr(prhs[3]),
                                              vec_arg(prhs[4], n, "rest"), n));
    } else if (!strcmp(cmd, "builder_set_joint_damper")) {
        entry *b;
        size_t n;
        need_args(nrhs, 4, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        n = real_array_len(prhs[3], "damping");
        check(maxdyn_builder_set_joint_damper((maxdyn_builder *)b->ptr, int_arg(prhs[2], "joint"), mxGetPr(prhs[3]), n));
    } else if (!strcmp(cmd, "builder_add_spring")) {
        entry *b;
        int32_t id = -1;
        need_args(nrhs, 9, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_builder_add_spring((maxdyn_builder *)b->ptr, int_arg(prhs[2], "body_a"), vec_arg(prhs[3], 3, "pa"),
                                        int_arg(prhs[4], "body_b"), vec_arg(prhs[5], 3, "pb"), scalar_arg(prhs[6], "stiffness"),
                                        scalar_arg(prhs[7], "damping"), scalar_arg(prhs[8], "rest_length"), &id));
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "model_new")) {
        entry *b;
        maxdyn_model *m = NULL;
        uint64_t h;
        need_args(nrhs, 2, cmd);
        b = handle_arg(prhs[1], KIND_BUILDER);
        check(maxdyn_model_new((maxdyn_builder *)b->ptr, &m));
        h = register_object(KIND_MODEL, m, NULL, 0);
        if (!h) fail("maxdyn:memory", "out of memory");
        plhs[0] = handle_out(h);
    } else if (!strcmp(cmd, "model_body_count") || !strcmp(cmd, "model_joint_count")) {
        entry *m;
        int32_t n = 0;
        need_args(nrhs, 2, cmd);
        m = handle_arg(prhs[1], KIND_MODEL);
        check(cmd[6] == 'b' ? maxdyn_model_get_body_count((maxdyn_model *)m->ptr, &n)
                            : maxdyn_model_get_joint_count((maxdyn_model *)m->ptr, &n));
        plhs[0] = mxCreateDoubleScalar(n);
    } else if (!strcmp(cmd, "model_joint_dof")) {
        entry *m;
        int32_t n = 0;
        need_args(nrhs, 3, cmd);
        m = handle_arg(prhs[1], KIND_MODEL);
        check(maxdyn_model_get_joint_dof((maxdyn_model *)m->ptr, int_arg(prhs[2], "joint"), &n));
        plhs[0] = mxCreateDoubleScalar(n);
    } else if (!strcmp(cmd, "sim_new")) {
        need_args(nrhs, 3, cmd);
        cmd_sim_new(nlhs, plhs, prhs);
    } else if (!strcmp(cmd, "sim_step")) {
        entry *s;
        int32_t n = 1, k;
        need_args(nrhs, 2, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        if (nrhs > 2) n = int_arg(prhs[2], "n");
        for (k = 0; k < n; k++) check(maxdyn_sim_step((maxdyn_sim *)s->ptr));
    } else if (!strcmp(cmd, "sim_time")) {
        entry *s;
        double t = 0.0;
        need_args(nrhs, 2, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_get_time((maxdyn_sim *)s->ptr, &t));
        plhs[0] = mxCreateDoubleScalar(t);
    } else if (!strcmp(cmd, "sim_get_body_state")) {
        entry *s;
        mxArray *out;
        maxdyn_status st;
        need_args(nrhs, 3, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        out = mxCreateDoubleMatrix(MAXDYN_BODY_STATE_SIZE, 1, mxREAL);
        st = maxdyn_sim_get_body_state((maxdyn_sim *)s->ptr, int_arg(prhs[2], "body"), mxGetPr(out));
        if (st != MAXDYN_STATUS_OK) mxDestroyArray(out);
        check(st);
        plhs[0] = out;
    } else if (!strcmp(cmd, "sim_set_body_state")) {
        entry *s;
        need_args(nrhs, 4, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_set_body_state((maxdyn_sim *)s->ptr, int_arg(prhs[2], "body"), vec_arg(prhs[3], MAXDYN_BODY_STATE_SIZE, "state")));
    } else if (!strcmp(cmd, "sim_set_body_force")) {
        entry *s;
        need_args(nrhs, 5, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_set_body_force((maxdyn_sim *)s->ptr, int_arg(prhs[2], "body"), vec_arg(prhs[3], 3, "force"), vec_arg(prhs[4], 3, "torque")));
    } else if (!strcmp(cmd, "sim_get_joint_position") || !strcmp(cmd, "sim_get_joint_velocity")) {
        need_args(nrhs, 3, cmd);
        cmd_joint_get(plhs, prhs, cmd[14] == 'v');
    } else if (!strcmp(cmd, "sim_set_joint_position") || !strcmp(cmd, "sim_set_joint_velocity")) {
        need_args(nrhs, 4, cmd);
        cmd_joint_set(prhs, cmd[14] == 'v');
    } else if (!strcmp(cmd, "sim_get_contact")) {
        entry *s;
        mxArray *out;
        maxdyn_status st;
        need_args(nrhs, 3, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        out = mxCreateDoubleMatrix(MAXDYN_CONTACT_SIZE, 1, mxREAL);
        st = maxdyn_sim_get_contact((maxdyn_sim *)s->ptr, int_arg(prhs[2], "contact"), mxGetPr(out));
        if (st != MAXDYN_STATUS_OK) mxDestroyArray(out);
        check(st);
        plhs[0] = out;
    } else if (!strcmp(cmd, "sim_set_joint_input")) {
        entry *s;
        size_t n;
        need_args(nrhs, 4, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        n = real_array_len(prhs[3], "u");
        check(maxdyn_sim_set_joint_input((maxdyn_sim *)s->ptr, int_arg(prhs[2], "joint"), mxGetPr(prhs[3]), n));
    } else if (!strcmp(cmd, "sim_get_joint_input")) {
        entry *s;
        int32_t joint, n;
        mxArray *out;
        maxdyn_status st;
        need_args(nrhs, 3, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        joint = int_arg(prhs[2], "joint");
        n = joint_dof(s, joint);
        out = mxCreateDoubleMatrix((size_t)n, 1, mxREAL);
        st = maxdyn_sim_get_joint_input((maxdyn_sim *)s->ptr, joint, mxGetPr(out), (size_t)n);
        if (st != MAXDYN_STATUS_OK) mxDestroyArray(out);
        check(st);
        plhs[0] = out;
    } else if (!strcmp(cmd, "sim_set_joint_target")) {
        entry *s;
        size_t n;
        need_args(nrhs, 5, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        n = same_length_args(prhs[3], "position", prhs[4], "velocity");
        check(maxdyn_sim_set_joint_target((maxdyn_sim *)s->ptr, int_arg(prhs[2], "joint"), mxGetPr(prhs[3]), mxGetPr(prhs[4]), n));
    } else if (!strcmp(cmd, "sim_get_joint_target")) {
        entry *s;
        int32_t joint, n;
        mxArray *p, *v;
        need_args(nrhs, 3, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        joint = int_arg(prhs[2], "joint");
        n = joint_dof(s, joint);
        p = mxCreateDoubleMatrix((size_t)n, 1, mxREAL);
        v = mxCreateDoubleMatrix((size_t)n, 1, mxREAL);
        two_outputs(nlhs, plhs, p, v, maxdyn_sim_get_joint_target((maxdyn_sim *)s->ptr, joint, mxGetPr(p), mxGetPr(v), (size_t)n));
    } else if (!strcmp(cmd, "sim_set_body_wrench")) {
        entry *s;
        need_args(nrhs, 6, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_set_body_wrench((maxdyn_sim *)s->ptr, int_arg(prhs[2], "body"), vec_arg(prhs[3], 3, "force"),
                                         vec_arg(prhs[4], 3, "torque"), vec_arg(prhs[5], 3, "point")));
    } else if (!strcmp(cmd, "sim_energy_account")) {
        entry *s;
        double w = 0.0, d = 0.0;
        need_args(nrhs, 2, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_get_energy_account((maxdyn_sim *)s->ptr, &w, &d));
        plhs[0] = mxCreateDoubleScalar(w);
        if (nlhs > 1) plhs[1] = mxCreateDoubleScalar(d);
    } else if (!strcmp(cmd, "sim_options")) {
        /* maxdyn_solver_options as [tolerance, max_iterations, acceptance, contact_tolerance,
            max_splits, contact_predictor_corrector, contact_margin, contact_warm_start,
            joint_tolerance, integrator] */
        entry *s;
        maxdyn_solver_options op;
        double *o;
        need_args(nrhs, 2, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_get_options((maxdyn_sim *)s->ptr, &op));
        plhs[0] = mxCreateDoubleMatrix(10, 1, mxREAL);
        o = mxGetPr(plhs[0]);
        o[0] = op.tolerance; o[1] = op.max_iterations; o[2] = op.acceptance; o[3] = op.contact_tolerance;
        o[4] = op.max_splits; o[5] = op.contact_predictor_corrector; o[6] = op.contact_margin;
        o[7] = op.contact_warm_start; o[8] = op.joint_tolerance; o[9] = op.integrator;
    } else if (!strcmp(cmd, "sim_set_options")) {
        /* the 10-vector of "sim_options"; the integer entries must be integers */
        entry *s;
        maxdyn_solver_options op;
        const double *v;
        const int integer[10] = {0, 1, 0, 0, 1, 1, 0, 1, 0, 1};
        int k;
        need_args(nrhs, 3, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        v = vec_arg(prhs[2], 10, "options");
        for (k = 0; k < 10; k++) {
            if (integer[k] && !(v[k] >= -2147483648.0 && v[k] <= 2147483647.0 && v[k] == (double)(int32_t)v[k]))
                fail("maxdyn:arguments", "argument `options`: max_iterations, max_splits, contact_predictor_corrector, contact_warm_start and integrator must be integers");
        }
        op = maxdyn_solver_options_default();
        op.tolerance = v[0]; op.max_iterations = (int32_t)v[1]; op.acceptance = v[2]; op.contact_tolerance = v[3];
        op.max_splits = (int32_t)v[4]; op.contact_predictor_corrector = (int32_t)v[5]; op.contact_margin = v[6];
        op.contact_warm_start = (int32_t)v[7]; op.joint_tolerance = v[8]; op.integrator = (int32_t)v[9];
        check(maxdyn_sim_set_options((maxdyn_sim *)s->ptr, &op));
    } else if (!strcmp(cmd, "sim_step_stats")) {
        /* [iterations, residual, stalled, line_search_halvings, contacts, active_contacts,
            complementarity, fallback, substeps, tresca_rounds, cold_restarts, relaxed] */
        entry *s;
        maxdyn_step_stats st;
        double *o;
        need_args(nrhs, 2, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_get_step_stats((maxdyn_sim *)s->ptr, &st));
        plhs[0] = mxCreateDoubleMatrix(12, 1, mxREAL);
        o = mxGetPr(plhs[0]);
        o[0] = st.iterations; o[1] = st.residual; o[2] = st.stalled; o[3] = st.line_search_halvings;
        o[4] = st.contacts; o[5] = st.active_contacts; o[6] = st.complementarity;
        o[7] = st.fallback; o[8] = st.substeps; o[9] = st.tresca_rounds;
        o[10] = st.cold_restarts; o[11] = st.relaxed;
    } else if (!strcmp(cmd, "sim_energy")) {
        entry *s;
        double k = 0.0, p = 0.0;
        need_args(nrhs, 2, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_get_energy((maxdyn_sim *)s->ptr, &k, &p));
        plhs[0] = mxCreateDoubleScalar(k);
        if (nlhs > 1) plhs[1] = mxCreateDoubleScalar(p);
    } else if (!strcmp(cmd, "sim_constraint_violation")) {
        entry *s;
        double v = 0.0;
        need_args(nrhs, 2, cmd);
        s = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_get_constraint_violation((maxdyn_sim *)s->ptr, &v));
        plhs[0] = mxCreateDoubleScalar(v);
    } else if (!names_command(cmd, nlhs, plhs, nrhs, prhs) && !sim_command(cmd, nlhs, plhs, nrhs, prhs) && !shapes_command(cmd, nlhs, plhs, nrhs, prhs) && !queries_command(cmd, nlhs, plhs, nrhs, prhs) && !record_command(cmd, nlhs, plhs, nrhs, prhs) && !whole_state_command(cmd, nlhs, plhs, nrhs, prhs)) {
        char msg[128];
        snprintf(msg, sizeof msg, "unknown command '%s'", cmd);
        fail("maxdyn:command", msg);
    }
}
