/*
 * Double pendulum through the maxdyn C API (SCENARIOS A2 setup, shortened).
 *
 * Two Box(0.1, 0.1, 0.1, m = 1) links hang 1 m below their joints: world -> body 1
 * joint at the origin, body 1 -> body 2 joint at body 1's centre; both revolute about x.
 * Both links start horizontal (joint 1 at pi/2, joint 2 at 0), at rest; dt = 0.01 s.
 *
 * Prints the energy error and the joint constraint violation every REPORT steps, and
 * exits non-zero if
 *   - any call fails,
 *   - the constraint violation ever exceeds 1e-9 (joints are exact in maximal
 *     coordinates: Newton solves the constraints to the solver tolerance), or
 *   - |E - E0| exceeds ENERGY_BOUND = 1 J (3.4 % of m g (1 m + 2 m) = 29.4 J; the
 *     variational integrator keeps it bounded, about 0.4 J over 100 s), or it grows:
 *     the maximum over the second half of the run exceeds 1.5 x the first half's.
 *
 * Usage: double_pendulum [steps]   (default 6000 = 60 s)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "maxdyn.h"

#define REPORT 1000
#define VIOLATION_BOUND 1e-9
#define ENERGY_BOUND 1.0
#define GROWTH_FACTOR 1.5

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

int main(int argc, char **argv) {
    long steps = argc > 1 ? atol(argv[1]) : 6000;
    const double pi = 3.14159265358979323846;
    const double m = 1.0, a = 0.1;
    const double jd = m * (a * a + a * a) / 12.0; /* cube inertia about each axis */
    const double inertia[9] = {jd, 0, 0, 0, jd, 0, 0, 0, jd};
    const double origin[3] = {0, 0, 0};
    const double below[3] = {0, 0, 1}; /* joint point in the child frame: 1 m above */
    const double x_axis[3] = {1, 0, 0};
    const double horizontal[1] = {pi / 2}, straight[1] = {0};

    printf("maxdyn %s (header %d.%d.%d)\n", maxdyn_version(), MAXDYN_VERSION_MAJOR,
           MAXDYN_VERSION_MINOR, MAXDYN_VERSION_PATCH);

    maxdyn_builder *b = NULL;
    int32_t body1, body2, joint1, joint2;
    CHECK(maxdyn_builder_new(&b));
    CHECK(maxdyn_builder_add_body(b, m, inertia, &body1));
    CHECK(maxdyn_builder_add_body(b, m, inertia, &body2));
    CHECK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, body1, origin,
                                   below, x_axis, &joint1));
    CHECK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, body1, body2, origin, below,
                                   x_axis, &joint2));

    maxdyn_model *model = NULL;
    maxdyn_sim *sim = NULL;
    CHECK(maxdyn_model_new(b, &model));
    maxdyn_builder_free(b); /* the model no longer needs the builder */
    CHECK(maxdyn_sim_new(model, 0.01, &sim));
    maxdyn_model_free(model); /* the sim keeps its model alive */
    CHECK(maxdyn_sim_set_joint_position(sim, joint1, horizontal, 1));
    CHECK(maxdyn_sim_set_joint_position(sim, joint2, straight, 1));

    double k0, p0;
    CHECK(maxdyn_sim_get_energy(sim, &k0, &p0));
    const double e0 = k0 + p0;
    double max_de_first = 0, max_de_second = 0, max_violation = 0;
    long iterations = 0;
    printf("%8s %10s %14s %14s %12s\n", "step", "time", "E - E0 [J]", "violation", "iterations");
    for (long k = 1; k <= steps; ++k) {
        CHECK(maxdyn_sim_step(sim));
        maxdyn_step_stats stats;
        double kin, pot, violation, t;
        CHECK(maxdyn_sim_get_step_stats(sim, &stats));
        CHECK(maxdyn_sim_get_energy(sim, &kin, &pot));
        CHECK(maxdyn_sim_get_constraint_violation(sim, &violation));
        iterations += stats.iterations;
        double de = fabs(kin + pot - e0);
        if (2 * k <= steps) {
            max_de_first = fmax(max_de_first, de);
        } else {
            max_de_second = fmax(max_de_second, de);
        }
        max_violation = fmax(max_violation, violation);
        if (k % REPORT == 0 || k == steps) {
            CHECK(maxdyn_sim_get_time(sim, &t));
            printf("%8ld %10.2f %14.6e %14.3e %12.2f\n", k, t, kin + pot - e0, violation,
                   (double)iterations / (double)k);
        }
    }
    double state[2][13];
    CHECK(maxdyn_sim_get_body_states(sim, &state[0][0], 2));
    printf("body 2 at %.17g %.17g %.17g\n", state[1][0], state[1][1], state[1][2]);
    maxdyn_sim_free(sim);

    printf("max |E - E0|: first half %.6e J, second half %.6e J (bound %.1f J, growth "
           "factor %.1f)\n",
           max_de_first, max_de_second, ENERGY_BOUND, GROWTH_FACTOR);
    printf("max constraint violation %.3e (bound %.0e)\n", max_violation, VIOLATION_BOUND);
    printf("live objects after free: %zu\n", maxdyn_debug_live_objects());

    int ok = 1;
    if (max_violation > VIOLATION_BOUND) {
        fprintf(stderr, "FAIL: constraint violation %.3e > %.0e\n", max_violation,
                VIOLATION_BOUND);
        ok = 0;
    }
    if (fmax(max_de_first, max_de_second) > ENERGY_BOUND) {
        fprintf(stderr, "FAIL: energy error above %.1f J\n", ENERGY_BOUND);
        ok = 0;
    }
    if (max_de_second > GROWTH_FACTOR * max_de_first) {
        fprintf(stderr, "FAIL: energy error grows (%.3e -> %.3e)\n", max_de_first,
                max_de_second);
        ok = 0;
    }
    if (maxdyn_debug_live_objects() != 0) {
        fprintf(stderr, "FAIL: leaked objects\n");
        ok = 0;
    }
    printf(ok ? "OK\n" : "FAILED\n");
    return ok ? 0 : 1;
}
