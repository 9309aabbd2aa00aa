/*
 * LQR on an inverted double pendulum on a cart, through the maxdyn C API (issue 13).
 *
 * A cart (1 kg) slides along the world y axis on a prismatic joint driven by a force;
 * on it, two rods (0.5 kg, 0.6 m each) stand upright on revolute joints about x, with
 * no torque at either (underactuated: one input, six states). Gravity -9.81 z, dt 0.01 s.
 *
 * 1. At the upright equilibrium (every coordinate and rate zero, no input) the step is
 *    linearized in minimal coordinates by `maxdyn_sim_linearize`:
 *        x_{k+1} - x* = A (x_k - x*) + B u_k,
 *    x = (cart position, angle 1, angle 2, their rates), u = every joint's input
 *    (cart force, torque 1, torque 2). Only the first column of B is used.
 * 2. The discrete-time algebraic Riccati equation
 *        P = Q + A'PA - A'PB (R + B'PB)^-1 B'PA
 *    is solved by iterating it from P = Q until it stops changing, giving the gain
 *    K = (R + B'PB)^-1 B'PA and the control u_k = -K (x_k - x*).
 * 3. The first rod is pushed 0.05 rad off vertical (default; first argument) and the
 *    controlled pendulum is stepped for 10 s (1000 steps; second argument).
 *
 * Prints the gain, the worst tilt of either rod from vertical, the worst cart offset and
 * the final state, and exits non-zero if any call fails, if either rod ever tilts more
 * than TILT_BOUND from vertical, or if the final state is not back at the equilibrium
 * within FINAL_BOUND (every entry).
 *
 * With a third argument h, A and B come from `maxdyn_sim_linearize_differences` (central
 * differences of whole steps with step h) instead: the gain and the run barely change.
 *
 * Usage: lqr_double_pendulum [push_rad] [steps] [h]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maxdyn.h"

#define NX 6 /* cart, angle 1, angle 2, then their rates */
#define NU 3 /* every joint's input: cart force, torque 1, torque 2 */
#define NA 1 /* inputs driven: the cart force only */
#define TILT_BOUND 0.2   /* rad */
#define FINAL_BOUND 1e-3 /* m, rad, m/s, rad/s */
#define DARE_TOLERANCE 1e-10
#define DARE_MAX_ITERATIONS 100000

#define CHECK(call)                                                                  \
    do {                                                                             \
        maxdyn_status status_ = (call);                                              \
        if (status_ != MAXDYN_STATUS_OK) {                                           \
            fprintf(stderr, "%s failed: %s (%d): %s\n", #call,                       \
                    maxdyn_status_string(status_), (int)status_,                     \
                    maxdyn_last_error_message());                                    \
            exit(2);                                                                 \
        }                                                                            \
    } while (0)

/* ---- small dense helpers (row-major) ---- */

/* c (n x m) = a (n x k) * b (k x m); c must not alias a or b. */
static void mat_mul(const double *a, const double *b, double *c, int n, int k, int m) {
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < m; ++j) {
            double s = 0;
            for (int l = 0; l < k; ++l) {
                s += a[i * k + l] * b[l * m + j];
            }
            c[i * m + j] = s;
        }
    }
}

/* c (n x m) = a' b with a (k x n), b (k x m). */
static void mat_tmul(const double *a, const double *b, double *c, int k, int n, int m) {
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < m; ++j) {
            double s = 0;
            for (int l = 0; l < k; ++l) {
                s += a[l * n + i] * b[l * m + j];
            }
            c[i * m + j] = s;
        }
    }
}

/* Solves s X = r in place (s n x n, r n x m; X into r) by Gaussian elimination with
 * partial pivoting; returns 0 if s is singular. */
static int solve(double *s, double *r, int n, int m) {
    for (int c = 0; c < n; ++c) {
        int p = c;
        for (int i = c + 1; i < n; ++i) {
            if (fabs(s[i * n + c]) > fabs(s[p * n + c])) {
                p = i;
            }
        }
        if (s[p * n + c] == 0) {
            return 0;
        }
        for (int j = 0; j < n; ++j) {
            double t = s[c * n + j];
            s[c * n + j] = s[p * n + j];
            s[p * n + j] = t;
        }
        for (int j = 0; j < m; ++j) {
            double t = r[c * m + j];
            r[c * m + j] = r[p * m + j];
            r[p * m + j] = t;
        }
        for (int i = c + 1; i < n; ++i) {
            double f = s[i * n + c] / s[c * n + c];
            for (int j = c; j < n; ++j) {
                s[i * n + j] -= f * s[c * n + j];
            }
            for (int j = 0; j < m; ++j) {
                r[i * m + j] -= f * r[c * m + j];
            }
        }
    }
    for (int c = n - 1; c >= 0; --c) {
        for (int j = 0; j < m; ++j) {
            double t = r[c * m + j];
            for (int l = c + 1; l < n; ++l) {
                t -= s[c * n + l] * r[l * m + j];
            }
            r[c * m + j] = t / s[c * n + c];
        }
    }
    return 1;
}

/* The gain K (na x nx) for P: K = (R + B'PB)^-1 B'PA. */
static int lqr_gain(const double *a, const double *b, const double *r, const double *p,
                    double *k) {
    double pa[NX * NX], pb[NX * NA], s[NA * NA];
    mat_mul(p, a, pa, NX, NX, NX);
    mat_mul(p, b, pb, NX, NX, NA);
    mat_tmul(b, pb, s, NX, NA, NA);
    for (int i = 0; i < NA * NA; ++i) {
        s[i] += r[i];
    }
    mat_tmul(b, pa, k, NX, NA, NX);
    return solve(s, k, NA, NX);
}

/* Iterates the Riccati equation from P = Q, P <- Q + A'P(A - BK), until the largest
 * change is below DARE_TOLERANCE relative to the largest entry. Returns the iterations
 * taken, 0 if it did not converge. */
static long dare(const double *a, const double *b, const double *q, const double *r,
                 double *p, double *k) {
    memcpy(p, q, sizeof(double) * NX * NX);
    for (long it = 1; it <= DARE_MAX_ITERATIONS; ++it) {
        double bk[NX * NX], closed[NX * NX], next[NX * NX];
        if (!lqr_gain(a, b, r, p, k)) {
            return 0;
        }
        mat_mul(b, k, bk, NX, NA, NX);
        for (int i = 0; i < NX * NX; ++i) {
            closed[i] = a[i] - bk[i];
        }
        double pc[NX * NX];
        mat_mul(p, closed, pc, NX, NX, NX);
        mat_tmul(a, pc, next, NX, NX, NX);
        double change = 0, largest = 0;
        for (int i = 0; i < NX; ++i) {
            for (int j = 0; j < NX; ++j) {
                /* symmetrize: the update is symmetric up to rounding */
                double v = q[i * NX + j] + 0.5 * (next[i * NX + j] + next[j * NX + i]);
                change = fmax(change, fabs(v - p[i * NX + j]));
                largest = fmax(largest, fabs(v));
                next[i * NX + j] = v;
            }
        }
        memcpy(p, next, sizeof next);
        if (change <= DARE_TOLERANCE * largest) {
            return lqr_gain(a, b, r, p, k) ? it : 0;
        }
    }
    return 0;
}

/* The minimal state x: every joint's position, then every joint's velocity. */
static void read_state(const maxdyn_sim *sim, const int32_t joint[3], double x[NX]) {
    for (int j = 0; j < 3; ++j) {
        CHECK(maxdyn_sim_get_joint_position(sim, joint[j], &x[j], 1));
        CHECK(maxdyn_sim_get_joint_velocity(sim, joint[j], &x[3 + j], 1));
    }
}

static void rod_inertia(double m, double len, double out[9]) {
    const double w = 0.05; /* square cross-section */
    const double across = m * (len * len + w * w) / 12.0, along = m * (w * w + w * w) / 12.0;
    const double inertia[9] = {across, 0, 0, 0, across, 0, 0, 0, along};
    memcpy(out, inertia, sizeof inertia);
}

int main(int argc, char **argv) {
    const double push = argc > 1 ? atof(argv[1]) : 0.05;
    const long steps = argc > 2 ? atol(argv[2]) : 1000;
    const double h = argc > 3 ? atof(argv[3]) : 0; /* 0: analytic */
    const double dt = 0.01, cart_mass = 1.0, rod_mass = 0.5, len = 0.6;
    const double cart_inertia[9] = {0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1};
    double rod[9];
    rod_inertia(rod_mass, len, rod);
    const double origin[3] = {0, 0, 0}, identity[4] = {1, 0, 0, 0};
    const double y_axis[3] = {0, 1, 0}, x_axis[3] = {1, 0, 0};
    const double rod_bottom[3] = {0, 0, -len / 2}, rod_top[3] = {0, 0, len / 2};
    const double rod1_at[3] = {0, 0, len / 2}, rod2_at[3] = {0, 0, 1.5 * len};

    maxdyn_builder *b = NULL;
    int32_t cart, rod1, rod2, joint[3];
    CHECK(maxdyn_builder_new(&b));
    CHECK(maxdyn_builder_add_body(b, cart_mass, cart_inertia, &cart));
    CHECK(maxdyn_builder_add_body(b, rod_mass, rod, &rod1));
    CHECK(maxdyn_builder_add_body(b, rod_mass, rod, &rod2));
    CHECK(maxdyn_builder_set_body_pose(b, rod1, rod1_at, identity));
    CHECK(maxdyn_builder_set_body_pose(b, rod2, rod2_at, identity));
    CHECK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_PRISMATIC, MAXDYN_WORLD, cart, origin,
                                   origin, y_axis, &joint[0]));
    CHECK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, cart, rod1, origin, rod_bottom,
                                   x_axis, &joint[1]));
    CHECK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, rod1, rod2, rod_top, rod_bottom,
                                   x_axis, &joint[2]));
    maxdyn_model *model = NULL;
    maxdyn_sim *sim = NULL;
    CHECK(maxdyn_model_new(b, &model));
    maxdyn_builder_free(b);

    size_t nx, nu;
    CHECK(maxdyn_model_state_size(model, MAXDYN_COORDS_MINIMAL, &nx, &nu));
    if (nx != NX || nu != NU) {
        fprintf(stderr, "FAIL: state size %zu x %zu, expected %d x %d\n", nx, nu, NX, NU);
        return 1;
    }
    CHECK(maxdyn_sim_new(model, dt, &sim));
    maxdyn_model_free(model);

    /* 1. linearize at the upright equilibrium (the sim is not advanced) */
    double a[NX * NX], b_all[NX * NU], b_cart[NX * NA];
    if (h > 0) {
        CHECK(maxdyn_sim_linearize_differences(sim, MAXDYN_COORDS_MINIMAL, h, a, b_all));
        printf("linearized by central differences, h = %g\n", h);
    } else {
        CHECK(maxdyn_sim_linearize(sim, MAXDYN_COORDS_MINIMAL, a, b_all));
        printf("linearized by maxdyn_sim_linearize\n");
    }
    for (int i = 0; i < NX; ++i) {
        b_cart[i] = b_all[i * NU + 0];
    }
    double x_eq[NX];
    read_state(sim, joint, x_eq);

    /* 2. LQR gain: weight the tilts most, the cart position a little */
    const double q_diag[NX] = {1, 100, 100, 1, 1, 1};
    double q[NX * NX] = {0}, r[NA * NA] = {0.01}, p[NX * NX], k[NA * NX];
    for (int i = 0; i < NX; ++i) {
        q[i * NX + i] = q_diag[i];
    }
    long iterations = dare(a, b_cart, q, r, p, k);
    if (iterations == 0) {
        fprintf(stderr, "FAIL: the Riccati iteration did not converge\n");
        return 1;
    }
    printf("Riccati iterations: %ld\n", iterations);
    printf("gain K:");
    for (int i = 0; i < NX; ++i) {
        printf(" %.6g", k[i]);
    }
    printf("\n");

    /* 3. push and control */
    const double tilt[1] = {push};
    CHECK(maxdyn_sim_set_joint_position(sim, joint[1], tilt, 1));
    double worst_tilt = 0, worst_cart = 0, worst_force = 0, x[NX];
    for (long step = 0; step < steps; ++step) {
        read_state(sim, joint, x);
        double u = 0;
        for (int i = 0; i < NX; ++i) {
            u -= k[i] * (x[i] - x_eq[i]);
        }
        CHECK(maxdyn_sim_set_joint_input(sim, joint[0], &u, 1));
        CHECK(maxdyn_sim_step(sim));
        read_state(sim, joint, x);
        worst_tilt = fmax(worst_tilt, fmax(fabs(x[1]), fabs(x[1] + x[2])));
        worst_cart = fmax(worst_cart, fabs(x[0]));
        worst_force = fmax(worst_force, fabs(u));
    }
    double t;
    CHECK(maxdyn_sim_get_time(sim, &t));
    maxdyn_sim_free(sim);

    double final_error = 0;
    for (int i = 0; i < NX; ++i) {
        final_error = fmax(final_error, fabs(x[i] - x_eq[i]));
    }
    printf("push: %.4f rad, %ld steps of %.3f s (t = %.2f s)\n", push, steps, dt, t);
    printf("worst tilt: %.6e rad (bound %.2f)\n", worst_tilt, TILT_BOUND);
    printf("worst cart offset: %.6e m\n", worst_cart);
    printf("worst force: %.6e N\n", worst_force);
    printf("final state:");
    for (int i = 0; i < NX; ++i) {
        printf(" %.6e", x[i]);
    }
    printf("\n");
    printf("final error: %.6e (bound %.0e)\n", final_error, FINAL_BOUND);
    printf("live objects after free: %zu\n", maxdyn_debug_live_objects());

    int ok = 1;
    if (!(worst_tilt <= TILT_BOUND)) {
        fprintf(stderr, "FAIL: a rod tilted %.3e rad > %.2f\n", worst_tilt, TILT_BOUND);
        ok = 0;
    }
    if (!(final_error <= FINAL_BOUND)) {
        fprintf(stderr, "FAIL: final state %.3e from the equilibrium\n", final_error);
        ok = 0;
    }
    if (maxdyn_debug_live_objects() != 0) {
        fprintf(stderr, "FAIL: leaked objects\n");
        ok = 0;
    }
    printf(ok ? "OK\n" : "FAILED\n");
    return ok ? 0 : 1;
}
