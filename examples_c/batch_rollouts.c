/*
 * Batch rollouts through the maxdyn C API: many sims of one model stepped on a pool of
 * threads, each under its own PD controller, bit-identical to stepping them one by one.
 *
 * The mechanism is pd_control.c's pendulum (Box(0.1, 0.1, 1, m = 1), revolute about x,
 * pivot 0.7 m above the ground) with a sphere of radius 0.05 at its lower end touching
 * the ground (friction 0.5). Each sim starts horizontal and holds a different target
 * angle with u = Kp (target - theta) - Kd dtheta/dt; gravity swings it down, and the
 * tip lands on the ground for the lower targets.
 *
 * 1. A batch of SIMS sims on `threads` threads, stepped `steps` steps in two calls with a
 *    control callback, against SIMS sims stepped one by one with the same controller
 *    through maxdyn_sim_set_control_callback: every body state must be equal bit for bit.
 * 2. The same batch again where the callback stops sim 2 at its step 2/3 `steps`: only sim 2
 *    stops (MAXDYN_STATUS_CALLBACK_ABORTED), the others match the serial sims.
 *
 * Prints what it checked and exits non-zero on any difference or failed call.
 *
 * Usage: batch_rollouts [threads [steps]]   (defaults 2 and 300; steps >= 60 so that some
 * tips land)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maxdyn.h"

#define SIMS 6
/* steps per rollout and the step at which sim 2 is stopped in part 2 (set in main) */
static int rollout_steps = 300, abort_at = 200;

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

/* Read-only settings shared by all threads, and one call counter per sim (each written
 * only by the thread stepping that sim). */
typedef struct {
    int32_t joint, contact;
    double kp, kd;
    double target[SIMS];
    long calls[SIMS];
    int touched[SIMS]; /* the tip has carried a normal force */
    int abort_sim; /* stop this sim at its step abort_at; -1: none */
} controllers;

/* The PD law for sim `index`: the same code for the batch and the serial sims. */
static int pd(maxdyn_sim *sim, size_t index, controllers *c) {
    double theta, rate, u, contact[5];
    uint64_t steps;
    c->calls[index]++;
    if (maxdyn_sim_get_contact(sim, c->contact, contact) != MAXDYN_STATUS_OK) return 1;
    c->touched[index] |= contact[1] > 0;
    if (maxdyn_sim_get_step_count(sim, &steps) != MAXDYN_STATUS_OK) return 1;
    if ((int)index == c->abort_sim && steps == (uint64_t)abort_at) return 7;
    if (maxdyn_sim_get_joint_position(sim, c->joint, &theta, 1) != MAXDYN_STATUS_OK ||
        maxdyn_sim_get_joint_velocity(sim, c->joint, &rate, 1) != MAXDYN_STATUS_OK)
        return 1;
    u = c->kp * (c->target[index] - theta) - c->kd * rate;
    return maxdyn_sim_set_joint_input(sim, c->joint, &u, 1) != MAXDYN_STATUS_OK;
}

/* maxdyn_batch_control: called on the pool's threads. */
static int batch_control(maxdyn_sim *sim, size_t index, void *user_data) {
    return pd(sim, index, (controllers *)user_data);
}

/* A serial sim's own callback: its user data says which sim it is. */
typedef struct {
    controllers *c;
    size_t index;
} serial_controller;

static int serial_control(maxdyn_sim *sim, void *user_data) {
    serial_controller *s = (serial_controller *)user_data;
    return pd(sim, s->index, s->c);
}

/* Steps SIMS sims one by one (until each fails or finishes); states in `out`. */
static void serial_run(const maxdyn_model *model, controllers *c, double *out, int32_t n_bodies,
                       uint64_t *step_counts) {
    for (size_t i = 0; i < SIMS; ++i) {
        maxdyn_sim *sim = NULL;
        serial_controller s = {c, i};
        CHECK(maxdyn_sim_new(model, 0.01, &sim));
        CHECK(maxdyn_sim_set_joint_position(sim, c->joint, (const double[]){1.5707963267948966}, 1));
        CHECK(maxdyn_sim_set_control_callback(sim, serial_control, &s));
        for (int k = 0; k < rollout_steps; ++k)
            if (maxdyn_sim_step(sim) != MAXDYN_STATUS_OK) break;
        CHECK(maxdyn_sim_get_step_count(sim, &step_counts[i]));
        CHECK(maxdyn_sim_get_body_states(sim, out + i * (size_t)n_bodies * 13, (size_t)n_bodies));
        maxdyn_sim_free(sim);
    }
}

/* The batch run: two calls of maxdyn_batch_step; returns the second call's status. */
static maxdyn_status batch_run(const maxdyn_model *model, size_t threads, controllers *c,
                               double *out, size_t n_values, maxdyn_status *statuses,
                               uint64_t *step_counts) {
    maxdyn_batch *batch = NULL;
    size_t size, used;
    CHECK(maxdyn_batch_new(model, SIMS, 0.01, threads, &batch));
    CHECK(maxdyn_batch_get_size(batch, &size));
    CHECK(maxdyn_batch_get_thread_count(batch, &used));
    if (size != SIMS || (threads != 0 && used != threads)) {
        fprintf(stderr, "FAIL: batch of %zu sims on %zu threads\n", size, used);
        exit(1);
    }
    for (size_t i = 0; i < SIMS; ++i) {
        maxdyn_sim *sim = NULL;
        CHECK(maxdyn_batch_get_sim(batch, i, &sim));
        CHECK(maxdyn_sim_set_joint_position(sim, c->joint, (const double[]){1.5707963267948966}, 1));
    }
    CHECK(maxdyn_batch_step(batch, rollout_steps / 2, batch_control, c, statuses, SIMS));
    maxdyn_status last = maxdyn_batch_step(batch, rollout_steps - rollout_steps / 2, batch_control, c, statuses, SIMS);
    CHECK(maxdyn_batch_get_body_states(batch, out, n_values));
    for (size_t i = 0; i < SIMS; ++i) {
        maxdyn_sim *sim = NULL;
        CHECK(maxdyn_batch_get_sim(batch, i, &sim));
        CHECK(maxdyn_sim_get_step_count(sim, &step_counts[i]));
    }
    maxdyn_batch_free(batch);
    return last;
}

static int compare(const char *what, const double *a, const double *b, size_t n,
                   const uint64_t *ca, const uint64_t *cb) {
    int ok = memcmp(a, b, n * sizeof(double)) == 0;
    for (size_t i = 0; i < SIMS; ++i) ok = ok && ca[i] == cb[i];
    printf("%s: batch and serial %s\n", what, ok ? "bit-identical" : "DIFFER");
    return ok;
}

int main(int argc, char **argv) {
    const size_t threads = argc > 1 ? (size_t)atol(argv[1]) : 2;
    if (argc > 2) {
        rollout_steps = atoi(argv[2]);
        abort_at = 2 * rollout_steps / 3;
        if (rollout_steps < 60) {
            fprintf(stderr, "steps must be at least 60\n");
            return 2;
        }
    }
    const double m = 1.0, w = 0.1, l = 1.0;
    const double inertia[9] = {m * (w * w + l * l) / 12, 0, 0, 0, m * (w * w + l * l) / 12, 0,
                               0, 0, m * (w * w + w * w) / 12};
    const double pivot[3] = {0, 0, 0.7}, top[3] = {0, 0, l / 2}, x_axis[3] = {1, 0, 0};
    const double tip[3] = {0, 0, -l / 2};
    controllers c = {-1, -1, 20.0, 3.0, {0}, {0}, {0}, -1};
    for (int i = 0; i < SIMS; ++i) c.target[i] = 0.3 + 0.25 * i;

    maxdyn_builder *b = NULL;
    int32_t body, n_bodies;
    CHECK(maxdyn_builder_new(&b));
    CHECK(maxdyn_builder_add_body(b, m, inertia, &body));
    CHECK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, body, pivot, top,
                                   x_axis, &c.joint));
    CHECK(maxdyn_builder_add_ground_contact(b, body, tip, 0.05, 0.5, &c.contact));
    maxdyn_model *model = NULL;
    CHECK(maxdyn_model_new(b, &model));
    maxdyn_builder_free(b);
    CHECK(maxdyn_model_get_body_count(model, &n_bodies));

    const size_t n = (size_t)SIMS * (size_t)n_bodies * 13;
    double serial[SIMS * 13], batch[SIMS * 13];
    uint64_t serial_steps[SIMS], batch_steps[SIMS];
    maxdyn_status statuses[SIMS];
    int ok = 1;
    printf("%d pendulums with a ground contact, %d steps, %zu threads\n", SIMS, rollout_steps, threads);

    /* 1. every sim runs to the end */
    serial_run(model, &c, serial, n_bodies, serial_steps);
    memset(c.calls, 0, sizeof c.calls);
    CHECK(batch_run(model, threads, &c, batch, n, statuses, batch_steps));
    ok &= compare("all running", serial, batch, n, serial_steps, batch_steps);
    for (int i = 0; i < SIMS; ++i) ok &= c.calls[i] == rollout_steps && statuses[i] == MAXDYN_STATUS_OK;
    int touched = 0;
    for (int i = 0; i < SIMS; ++i) touched += c.touched[i];
    printf("sims whose tip touched the ground: %d of %d\n", touched, SIMS);
    ok &= touched >= 1 && touched < SIMS;

    /* 2. the callback stops sim 2 */
    c.abort_sim = 2;
    serial_run(model, &c, serial, n_bodies, serial_steps);
    maxdyn_status last = batch_run(model, threads, &c, batch, n, statuses, batch_steps);
    ok &= compare("sim 2 aborted", serial, batch, n, serial_steps, batch_steps);
    printf("second call returned %s: %s\n", maxdyn_status_string(last), maxdyn_last_error_message());
    ok &= last == MAXDYN_STATUS_CALLBACK_ABORTED && batch_steps[2] == (uint64_t)abort_at;
    for (int i = 0; i < SIMS; ++i) {
        const maxdyn_status want = i == 2 ? MAXDYN_STATUS_CALLBACK_ABORTED : MAXDYN_STATUS_OK;
        ok &= statuses[i] == want && (i == 2 || batch_steps[i] == (uint64_t)rollout_steps);
    }
    printf("statuses:");
    for (int i = 0; i < SIMS; ++i) printf(" %d", (int)statuses[i]);
    printf("\n");

    maxdyn_model_free(model);
    if (maxdyn_debug_live_objects() != 0) {
        fprintf(stderr, "FAIL: %zu objects leaked\n", maxdyn_debug_live_objects());
        ok = 0;
    }
    printf("%s\n", ok ? "batch rollouts: OK" : "batch rollouts: FAIL");
    return ok ? 0 : 1;
}
