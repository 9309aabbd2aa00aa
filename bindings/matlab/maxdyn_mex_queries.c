/*
 * maxdyn_mex commands that answer a controller's questions (docs/QUERIES.md):
 *
 *   x = maxdyn_mex('sim_state', s)                        the exact state, a column
 *   maxdyn_mex('sim_set_state', s, x)                      restore it (validated first)
 *   s2 = maxdyn_mex('sim_copy', s)                         an independent copy
 *   p = maxdyn_mex('sim_frame_pose', s, frame)             7x1: position, quaternion
 *   J = maxdyn_mex('sim_frame_jacobian', s, frame, axes, coords)         6 x m
 *   J = maxdyn_mex('sim_point_jacobian', s, body, point, axes, coords)   6 x m
 *        axes 0 world, 1 local; coords 0 minimal joint velocities, 1 maximal body velocities
 *   M = maxdyn_mex('sim_mass_matrix', s)                   n x n joint-space mass matrix
 *   b = maxdyn_mex('sim_bias_forces', s, qd)               n x 1 gravity + Coriolis
 *   tau = maxdyn_mex('sim_inverse_dynamics', s, qd, qdd)   n x 1
 *   B = maxdyn_mex('sim_input_derivative', s, coords)      nx x nu, d x_{k+1} / d u
 *   [nx, nu] = maxdyn_mex('sim_state_dimensions', s, coords)
 *   [A, B] = maxdyn_mex('sim_linearize', s, coords)        of x_{k+1} = f(x_k, u_k):
 *        A = df/dx (nx x nx), B = df/du (nx x nu); with one output B is not computed
 *   [A, B] = maxdyn_mex('sim_linearize_differences', s, coords, h)   by central differences
 *
 * Ids are the C API's (0-based). C returns row-major matrices; these are transposed
 * into MATLAB's column-major ones.
 */

#include <stdlib.h>
#include <string.h>

#include "maxdyn_mex.h"

static maxdyn_sim *sim_arg(const mxArray *a) { return (maxdyn_sim *)handle_arg(a, KIND_SIM)->ptr; }

/* A rows x cols MATLAB matrix from `rows * cols` row-major doubles. */
static mxArray *from_row_major(const double *v, size_t rows, size_t cols) {
    mxArray *out = mxCreateDoubleMatrix(rows, cols, mxREAL);
    double *o = mxGetPr(out);
    size_t r, c;
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++) o[c * rows + r] = v[r * cols + c];
    return out;
}

/* Calls `fill` on a temporary buffer of n doubles and returns it as a rows x cols matrix;
 * the buffer is freed before any error is raised. */
#define MATRIX_OUT(plhs0, rows, cols, call)                                   \
    do {                                                                      \
        size_t n_ = (rows) * (cols);                                          \
        double *buf_ = (double *)mxMalloc((n_ > 0 ? n_ : 1) * sizeof(double)); \
        maxdyn_status st_ = (call);                                           \
        if (st_ == MAXDYN_STATUS_OK) (plhs0) = from_row_major(buf_, (rows), (cols)); \
        mxFree(buf_);                                                         \
        check(st_);                                                           \
    } while (0)

static size_t velocity_count(maxdyn_sim *s, int32_t coords) {
    size_t m = 0;
    check(maxdyn_sim_velocity_count(s, coords, &m));
    return m;
}

static size_t minimal_count(maxdyn_sim *s) { return velocity_count(s, MAXDYN_COORDS_MINIMAL); }

static int state_command(const char *cmd, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "sim_state")) {
        maxdyn_sim *s;
        size_t n = 0;
        need_args(nrhs, 2, cmd);
        s = sim_arg(prhs[1]);
        check(maxdyn_sim_state_size(s, &n));
        plhs[0] = mxCreateDoubleMatrix(n, 1, mxREAL);
        {
            maxdyn_status st = maxdyn_sim_get_state(s, mxGetPr(plhs[0]), n);
            if (st != MAXDYN_STATUS_OK) mxDestroyArray(plhs[0]);
            check(st);
        }
    } else if (!strcmp(cmd, "sim_set_state")) {
        size_t n;
        need_args(nrhs, 3, cmd);
        n = real_array_len(prhs[2], "x");
        check(maxdyn_sim_set_state(sim_arg(prhs[1]), mxGetPr(prhs[2]), n));
    } else if (!strcmp(cmd, "sim_copy")) {
        entry *e;
        maxdyn_sim *copy = NULL;
        int32_t *dofs = NULL;
        uint64_t h;
        need_args(nrhs, 2, cmd);
        e = handle_arg(prhs[1], KIND_SIM);
        check(maxdyn_sim_copy((const maxdyn_sim *)e->ptr, &copy));
        /* the copy's joint dofs, as its model's (freed with its registry entry) */
        dofs = (int32_t *)calloc(e->n_joints > 0 ? (size_t)e->n_joints : 1, sizeof(int32_t));
        if (!dofs) {
            maxdyn_sim_free(copy);
            fail("maxdyn:memory", "out of memory");
        }
        if (e->n_joints > 0) memcpy(dofs, e->dofs, (size_t)e->n_joints * sizeof(int32_t));
        h = register_object(KIND_SIM, copy, dofs, e->n_joints);
        if (!h) fail("maxdyn:memory", "out of memory");
        plhs[0] = handle_out(h);
    } else {
        return 0;
    }
    return 1;
}

static int kinematics_command(const char *cmd, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "sim_frame_pose")) {
        need_args(nrhs, 3, cmd);
        plhs[0] = mxCreateDoubleMatrix(7, 1, mxREAL);
        {
            maxdyn_status st = maxdyn_sim_get_frame_pose(sim_arg(prhs[1]), int_arg(prhs[2], "frame"), mxGetPr(plhs[0]));
            if (st != MAXDYN_STATUS_OK) mxDestroyArray(plhs[0]);
            check(st);
        }
    } else if (!strcmp(cmd, "sim_frame_jacobian")) {
        maxdyn_sim *s;
        int32_t coords;
        size_t m;
        need_args(nrhs, 5, cmd);
        s = sim_arg(prhs[1]);
        coords = int_arg(prhs[4], "coords");
        m = velocity_count(s, coords);
        MATRIX_OUT(plhs[0], 6, m, maxdyn_sim_get_frame_jacobian(s, int_arg(prhs[2], "frame"), int_arg(prhs[3], "axes"), coords, buf_, n_));
    } else if (!strcmp(cmd, "sim_point_jacobian")) {
        maxdyn_sim *s;
        int32_t coords;
        size_t m;
        need_args(nrhs, 6, cmd);
        s = sim_arg(prhs[1]);
        coords = int_arg(prhs[5], "coords");
        m = velocity_count(s, coords);
        MATRIX_OUT(plhs[0], 6, m, maxdyn_sim_get_point_jacobian(s, int_arg(prhs[2], "body"), vec_arg(prhs[3], 3, "point"), int_arg(prhs[4], "axes"), coords, buf_, n_));
    } else {
        return 0;
    }
    return 1;
}

static int dynamics_command(const char *cmd, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "sim_mass_matrix")) {
        maxdyn_sim *s;
        size_t n;
        need_args(nrhs, 2, cmd);
        s = sim_arg(prhs[1]);
        n = minimal_count(s);
        MATRIX_OUT(plhs[0], n, n, maxdyn_sim_get_mass_matrix(s, buf_, n_));
    } else if (!strcmp(cmd, "sim_bias_forces")) {
        maxdyn_sim *s;
        size_t n;
        need_args(nrhs, 3, cmd);
        s = sim_arg(prhs[1]);
        n = minimal_count(s);
        MATRIX_OUT(plhs[0], n, 1, maxdyn_sim_get_bias_forces(s, vec_arg(prhs[2], n, "qd"), buf_, n_));
    } else if (!strcmp(cmd, "sim_inverse_dynamics")) {
        maxdyn_sim *s;
        size_t n;
        need_args(nrhs, 4, cmd);
        s = sim_arg(prhs[1]);
        n = minimal_count(s);
        MATRIX_OUT(plhs[0], n, 1, maxdyn_sim_inverse_dynamics(s, vec_arg(prhs[2], n, "qd"), vec_arg(prhs[3], n, "qdd"), buf_, n_));
    } else if (!strcmp(cmd, "sim_input_derivative")) {
        maxdyn_sim *s;
        int32_t coords;
        size_t nx = 0, nu = 0;
        need_args(nrhs, 3, cmd);
        s = sim_arg(prhs[1]);
        coords = int_arg(prhs[2], "coords");
        check(maxdyn_sim_state_dimensions(s, coords, &nx, &nu));
        MATRIX_OUT(plhs[0], nx, nu, maxdyn_sim_input_derivative(s, coords, buf_, n_));
    } else {
        return 0;
    }
    return 1;
}

/* [A, B] of `maxdyn_sim_linearize` or, with `differences`, of `_differences` with step h;
 * B only when asked for (NULL to C otherwise). Buffers are freed before any error is
 * raised. */
static void linearization_out(int nlhs, mxArray *plhs[], maxdyn_sim *s, int32_t coords, int differences, double h) {
    size_t nx = 0, nu = 0;
    double *a, *b = NULL;
    maxdyn_status st;
    check(maxdyn_sim_state_dimensions(s, coords, &nx, &nu));
    a = (double *)mxMalloc((nx * nx > 0 ? nx * nx : 1) * sizeof(double));
    if (nlhs > 1) b = (double *)mxMalloc((nx * nu > 0 ? nx * nu : 1) * sizeof(double));
    st = differences ? maxdyn_sim_linearize_differences(s, coords, h, a, b) : maxdyn_sim_linearize(s, coords, a, b);
    if (st == MAXDYN_STATUS_OK) {
        plhs[0] = from_row_major(a, nx, nx);
        if (b) plhs[1] = from_row_major(b, nx, nu);
    }
    mxFree(a);
    if (b) mxFree(b);
    check(st);
}

static int linearization_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "sim_state_dimensions")) {
        size_t nx = 0, nu = 0;
        need_args(nrhs, 3, cmd);
        check(maxdyn_sim_state_dimensions(sim_arg(prhs[1]), int_arg(prhs[2], "coords"), &nx, &nu));
        plhs[0] = mxCreateDoubleScalar((double)nx);
        if (nlhs > 1) plhs[1] = mxCreateDoubleScalar((double)nu);
    } else if (!strcmp(cmd, "sim_linearize")) {
        need_args(nrhs, 3, cmd);
        linearization_out(nlhs, plhs, sim_arg(prhs[1]), int_arg(prhs[2], "coords"), 0, 0.0);
    } else if (!strcmp(cmd, "sim_linearize_differences")) {
        need_args(nrhs, 4, cmd);
        linearization_out(nlhs, plhs, sim_arg(prhs[1]), int_arg(prhs[2], "coords"), 1, scalar_arg(prhs[3], "h"));
    } else {
        return 0;
    }
    return 1;
}

int queries_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    return state_command(cmd, plhs, nrhs, prhs) || kinematics_command(cmd, plhs, nrhs, prhs) || dynamics_command(cmd, plhs, nrhs, prhs) ||
           linearization_command(cmd, nlhs, plhs, nrhs, prhs);
}
