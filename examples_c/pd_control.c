/*
 * PD control through the maxdyn C API's control callback.
 *
 * A pendulum Box(0.1, 0.1, 1, m = 1) hangs from the world by a revolute joint about x at
 * its top end (joint point (0, 0, 0.5) in the body frame). Before each step the control
 * callback reads the joint angle and rate and sets the joint torque
 *
 *     u = Kp (target - theta) - Kd dtheta/dt,
 *
 * which holds until the next call. Gravity pulls the pendulum below the target: it
 * settles where the spring torque balances gravity's moment about the pivot,
 *
 *     Kp (target - theta) = m g (l / 2) sin(theta),
 *
 * solved here by Newton's method. The variational integrator's resting state is an exact
 * static equilibrium, so the settled angle matches to the solver tolerance.
 *
 * Then the same PD as a servo: the gains as the joint's spring and damper
 * (maxdyn_builder_set_joint_spring / _damper) and the target set on the sim
 * (maxdyn_sim_set_joint_target), no callback. The damping is then implicit in the step
 * (stable for any gain and step), and the pendulum settles at the same balance.
 *
 * Prints the angle every REPORT steps, then the settled and predicted angles, and exits
 * non-zero if any call fails or either settled angle differs from the prediction by more
 * than ANGLE_BOUND = 1e-6 rad.
 *
 * Usage: pd_control [steps]   (default 3000 = 30 s at dt = 0.01)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "maxdyn.h"

#define ANGLE_BOUND 1e-6
#define REPORT 250

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

/* The controller's state, passed to the callback as user_data. */
typedef struct {
    int32_t joint;
    double kp, kd, target;
    long calls;
} pd_controller;

/* Called by maxdyn_sim_step before each step; a non-zero return aborts the step. */
static int pd_control(maxdyn_sim *sim, void *user_data) {
    pd_controller *pd = (pd_controller *)user_data;
    double theta, rate, u;
    pd->calls++;
    if (maxdyn_sim_get_joint_position(sim, pd->joint, &theta, 1) != MAXDYN_STATUS_OK ||
        maxdyn_sim_get_joint_velocity(sim, pd->joint, &rate, 1) != MAXDYN_STATUS_OK)
        return 1;
    u = pd->kp * (pd->target - theta) - pd->kd * rate;
    return maxdyn_sim_set_joint_input(sim, pd->joint, &u, 1) != MAXDYN_STATUS_OK;
}

/* The pendulum's sim (its joint into *joint); with `servo` (Kp, Kd) the joint carries a
 * spring and a damper of those gains. */
static maxdyn_sim *pendulum(double m, const double inertia[9], double dt, const pd_controller *servo,
                            int32_t *joint) {
    const double pivot[3] = {0, 0, 0}, top[3] = {0, 0, 0.5}, x_axis[3] = {1, 0, 0}, rest = 0;
    maxdyn_builder *b = NULL;
    maxdyn_model *model = NULL;
    maxdyn_sim *sim = NULL;
    int32_t body;
    CHECK(maxdyn_builder_new(&b));
    CHECK(maxdyn_builder_add_body(b, m, inertia, &body));
    CHECK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, body, pivot, top,
                                   x_axis, joint));
    if (servo) {
        CHECK(maxdyn_builder_set_joint_spring(b, *joint, &servo->kp, &rest, 1));
        CHECK(maxdyn_builder_set_joint_damper(b, *joint, &servo->kd, 1));
    }
    CHECK(maxdyn_model_new(b, &model));
    maxdyn_builder_free(b);
    CHECK(maxdyn_sim_new(model, dt, &sim));
    maxdyn_model_free(model);
    return sim;
}

int main(int argc, char **argv) {
    const long steps = argc > 1 ? atol(argv[1]) : 3000;
    const double m = 1.0, w = 0.1, l = 1.0, g = 9.81, dt = 0.01;
    const double inertia[9] = {m * (w * w + l * l) / 12, 0, 0, 0, m * (w * w + l * l) / 12, 0,
                               0, 0, m * (w * w + w * w) / 12};
    pd_controller pd = {-1, 20.0, 3.0, 1.2, 0};

    maxdyn_sim *sim = pendulum(m, inertia, dt, NULL, &pd.joint);
    CHECK(maxdyn_sim_set_control_callback(sim, pd_control, &pd));

    printf("PD pendulum: Kp = %.1f, Kd = %.1f, target = %.3f rad, dt = %.2f s\n", pd.kp, pd.kd,
           pd.target, dt);
    printf("%8s %16s %16s\n", "time", "angle [rad]", "rate [rad/s]");
    double theta = 0, rate = 0;
    for (long k = 1; k <= steps; ++k) {
        CHECK(maxdyn_sim_step(sim));
        if (k % REPORT == 0 || k == steps) {
            CHECK(maxdyn_sim_get_joint_position(sim, pd.joint, &theta, 1));
            CHECK(maxdyn_sim_get_joint_velocity(sim, pd.joint, &rate, 1));
            printf("%8.2f %16.10f %16.3e\n", k * dt, theta, rate);
        }
    }
    double u;
    CHECK(maxdyn_sim_get_joint_input(sim, pd.joint, &u, 1));
    maxdyn_sim_free(sim);

    /* the same PD as a servo: target 1.2 rad at rate 0, held by the sim */
    int32_t servo_joint;
    const double zero_rate = 0;
    double servo_theta;
    sim = pendulum(m, inertia, dt, &pd, &servo_joint);
    CHECK(maxdyn_sim_set_joint_target(sim, servo_joint, &pd.target, &zero_rate, 1));
    CHECK(maxdyn_sim_step_n(sim, (int32_t)steps));
    CHECK(maxdyn_sim_get_joint_position(sim, servo_joint, &servo_theta, 1));
    maxdyn_sim_free(sim);

    /* the static balance Kp (target - x) = m g (l/2) sin x, by Newton from the target */
    double predicted = pd.target;
    for (int i = 0; i < 50; ++i) {
        const double f = pd.kp * (pd.target - predicted) - m * g * (l / 2) * sin(predicted);
        const double df = -pd.kp - m * g * (l / 2) * cos(predicted);
        predicted -= f / df;
    }
    const double error = fmax(fabs(theta - predicted), fabs(servo_theta - predicted));
    printf("callback calls: %ld\n", pd.calls);
    printf("settled angle: %.12f rad\n", theta);
    printf("servo settled angle: %.12f rad\n", servo_theta);
    printf("predicted angle: %.12f rad\n", predicted);
    printf("final torque: %.9f N m (m g l/2 sin(theta) = %.9f N m)\n", u,
           m * g * (l / 2) * sin(theta));
    printf("angle error: %.3e rad (bound %.0e)\n", error, ANGLE_BOUND);
    if (pd.calls != steps) {
        fprintf(stderr, "FAIL: the callback ran %ld times in %ld steps\n", pd.calls, steps);
        return 1;
    }
    if (!(error <= ANGLE_BOUND)) {
        fprintf(stderr, "FAIL: settled %.12f rad (servo %.12f rad), predicted %.12f rad\n", theta,
                servo_theta, predicted);
        return 1;
    }
    return 0;
}
