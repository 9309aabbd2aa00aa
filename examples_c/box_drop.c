/*
 * Box drop through the maxdyn C API (SCENARIOS A4, one height).
 *
 * A Box(0.5, 0.5, 0.5, m = 1), free, with a point contact at each of its 8 corners
 * against the ground z >= 0 (friction 0.3, the default linear cone with 4 directions),
 * dropped from rest with its bottom DROP_HEIGHT = 1 m above the ground; dt = 0.01 s,
 * 1 s. Rigid contact: the corners stop on the ground instead of sinking into it.
 *
 * Prints the lowest corner's height (the smallest contact gap) every REPORT steps with
 * the number of touching contacts and their total normal force, then a summary, and
 * exits non-zero if
 *   - any call fails,
 *   - a corner ever goes below the ground by more than PENETRATION_BOUND = 1e-4 m, or
 *   - at the end the box is not at rest (speed > REST_SPEED = 1e-6 m/s) with its bottom
 *     within REST_BOUND = 1e-3 m of the ground.
 *
 * Usage: box_drop [drop height in m]   (default 1)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "maxdyn.h"

#define DROP_HEIGHT 1.0
#define STEPS 100
#define REPORT 5
#define PENETRATION_BOUND 1e-4
#define REST_BOUND 1e-3
#define REST_SPEED 1e-6
#define CORNERS 8

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
    const double drop = argc > 1 ? atof(argv[1]) : DROP_HEIGHT;
    const double m = 1.0, a = 0.5, h = a / 2, mu = 0.3, dt = 0.01, g = 9.81;
    const double jd = m * (a * a + a * a) / 12.0;
    const double inertia[9] = {jd, 0, 0, 0, jd, 0, 0, 0, jd};
    const double start[3] = {0, 0, h + drop}; /* centre: bottom face `drop` above z = 0 */
    const double upright[4] = {1, 0, 0, 0};

    maxdyn_builder *b = NULL;
    int32_t box, contact[CORNERS];
    CHECK(maxdyn_builder_new(&b));
    CHECK(maxdyn_builder_add_body(b, m, inertia, &box));
    CHECK(maxdyn_builder_set_body_pose(b, box, start, upright));
    for (int k = 0; k < CORNERS; ++k) {
        const double corner[3] = {(k & 1) ? h : -h, (k & 2) ? h : -h, (k & 4) ? h : -h};
        CHECK(maxdyn_builder_add_ground_contact(b, box, corner, 0.0, mu, &contact[k]));
    }

    maxdyn_model *model = NULL;
    maxdyn_sim *sim = NULL;
    CHECK(maxdyn_model_new(b, &model));
    maxdyn_builder_free(b);
    CHECK(maxdyn_sim_new(model, dt, &sim));
    maxdyn_model_free(model);

    printf("box drop: Box(%.2f, %.2f, %.2f, %.0f), %d corner contacts, mu = %.1f, bottom %.2f m "
           "above the ground, dt = %.2f s\n",
           a, a, a, m, CORNERS, mu, drop, dt);
    printf("%6s %14s %8s %14s %11s\n", "time", "lowest corner", "active", "normal force", "iterations");
    double max_penetration = 0, lowest = 0, total_normal = 0;
    maxdyn_step_stats stats;
    for (int step = 1; step <= STEPS; ++step) {
        CHECK(maxdyn_sim_step(sim));
        CHECK(maxdyn_sim_get_step_stats(sim, &stats));
        lowest = INFINITY;
        total_normal = 0;
        for (int k = 0; k < CORNERS; ++k) {
            double c[MAXDYN_CONTACT_SIZE]; /* gap, normal force, friction force (3) */
            CHECK(maxdyn_sim_get_contact(sim, contact[k], c));
            if (c[0] < lowest) lowest = c[0];
            total_normal += c[1];
        }
        if (-lowest > max_penetration) max_penetration = -lowest;
        if (step % REPORT == 0)
            printf("%6.2f %14.3e %8d %14.6f %11d\n", step * dt, lowest, (int)stats.active_contacts,
                   total_normal, (int)stats.iterations);
    }

    double state[MAXDYN_BODY_STATE_SIZE];
    CHECK(maxdyn_sim_get_body_state(sim, box, state));
    const double speed = sqrt(state[7] * state[7] + state[8] * state[8] + state[9] * state[9]);
    maxdyn_sim_free(sim);

    printf("max penetration: %.3e m (bound %.0e)\n", max_penetration, PENETRATION_BOUND);
    printf("rest height: %.3e m (bound %.0e)\n", lowest, REST_BOUND);
    printf("final speed: %.3e m/s\n", speed);
    printf("total normal force: %.9f N (m g = %.9f N)\n", total_normal, m * g);
    int failed = 0;
    if (max_penetration > PENETRATION_BOUND) {
        fprintf(stderr, "FAIL: penetration %.3e m > %.0e m\n", max_penetration, PENETRATION_BOUND);
        failed = 1;
    }
    if (fabs(lowest) > REST_BOUND || speed > REST_SPEED) {
        fprintf(stderr, "FAIL: not at rest on the ground (height %.3e m, speed %.3e m/s)\n", lowest, speed);
        failed = 1;
    }
    return failed;
}
