/* The model's names and structure read from C after the builder is freed (compiled and
 * run by tests/capi_model.rs with -std=c99 -Wall -Wextra -Wpedantic -Werror). Prints
 * "model from C: N failures". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "c_checks.h"
#include "maxdyn.h"

int main(void) {
    const double J[9] = {0.3, 0.01, 0.02, 0.01, 0.2, 0.03, 0.02, 0.03, 0.15};
    const double zero[3] = {0, 0, 0}, down[3] = {0, 0, -1}, x[3] = {1, 0, 0};
    const double lo[1] = {-1.5}, hi[1] = {INFINITY}, pose[7] = {0, 0, -0.5, 0, 0, 0, 3};
    maxdyn_builder *b = NULL;
    maxdyn_model *m = NULL;
    int32_t upper, lower, shoulder, elbow, mimic, tool, id = -1, parent, child, type, n;
    int32_t follower, leader;
    double mass, inertia[9], frame_pose[7], lower_limit[1], upper_limit[1], k, offset;
    char small[4], name[32];
    size_t length = 0;
    int failures = 0;

    OK(maxdyn_builder_new(&b));
    OK(maxdyn_builder_add_body(b, 2.0, J, &upper));
    OK(maxdyn_builder_add_body(b, 1.0, J, &lower));
    OK(maxdyn_builder_set_body_name(b, upper, "upper_arm"));
    OK(maxdyn_builder_set_body_name(b, lower, "forearm"));
    OK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, upper, zero, down, x, &shoulder));
    OK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, upper, lower, zero, down, x, &elbow));
    OK(maxdyn_builder_set_joint_name(b, shoulder, "shoulder"));
    OK(maxdyn_builder_set_joint_name(b, elbow, "elbow"));
    OK(maxdyn_builder_set_joint_limits(b, elbow, lo, hi, 1));
    OK(maxdyn_builder_add_mimic(b, elbow, shoulder, 2.0, 0.1, &mimic));
    OK(maxdyn_builder_add_frame(b, "tool", lower, pose, &tool));
    OK(maxdyn_model_new(b, &m));
    maxdyn_builder_free(b);

    OK(maxdyn_model_find_body(m, "forearm", &id));
    EXPECT(id == lower);
    OK(maxdyn_model_find_joint(m, "elbow", &id));
    EXPECT(id == elbow);
    OK(maxdyn_model_find_frame(m, "tool", &id));
    EXPECT(id == tool && tool == 0);
    /* a short buffer: a terminated prefix and the full length */
    OK(maxdyn_model_get_body_name(m, upper, small, sizeof small, &length));
    EXPECT(strcmp(small, "upp") == 0 && length == 9);
    OK(maxdyn_model_get_body_name(m, upper, name, sizeof name, &length));
    EXPECT(strcmp(name, "upper_arm") == 0 && length == 9);
    OK(maxdyn_model_get_joint_name(m, elbow, NULL, 0, &length));
    EXPECT(length == 5);
    OK(maxdyn_model_get_frame_name(m, tool, name, sizeof name, &length));
    EXPECT(strcmp(name, "tool") == 0);

    OK(maxdyn_model_get_joint_type(m, elbow, &type));
    OK(maxdyn_model_get_joint_parent(m, shoulder, &parent));
    OK(maxdyn_model_get_joint_child(m, elbow, &child));
    EXPECT(type == MAXDYN_JOINT_REVOLUTE && parent == MAXDYN_WORLD && child == lower);
    OK(maxdyn_model_get_joint_parent(m, elbow, &parent));
    EXPECT(parent == upper);
    OK(maxdyn_model_get_body_mass(m, upper, &mass));
    OK(maxdyn_model_get_body_inertia(m, lower, inertia));
    EXPECT(mass == 2.0 && memcmp(inertia, J, sizeof J) == 0);
    OK(maxdyn_model_get_frame_count(m, &n));
    OK(maxdyn_model_get_frame_body(m, tool, &id));
    OK(maxdyn_model_get_frame_pose(m, tool, frame_pose));
    EXPECT(n == 1 && id == lower && frame_pose[2] == -0.5 && frame_pose[3] == 0.0 && frame_pose[6] == 1.0);
    OK(maxdyn_model_get_limit_count(m, &n));
    OK(maxdyn_model_get_joint_limits(m, elbow, lower_limit, upper_limit, 1));
    EXPECT(n == 1 && lower_limit[0] == -1.5 && isinf(upper_limit[0]) && upper_limit[0] > 0);
    OK(maxdyn_model_get_joint_limits(m, shoulder, lower_limit, upper_limit, 1));
    EXPECT(isinf(lower_limit[0]) && lower_limit[0] < 0 && isinf(upper_limit[0]));
    OK(maxdyn_model_get_mimic_count(m, &n));
    OK(maxdyn_model_get_mimic(m, mimic, &follower, &leader, &k, &offset));
    EXPECT(n == 1 && follower == elbow && leader == shoulder && k == 2.0 && offset == 0.1);

    EXPECT(maxdyn_model_find_joint(m, "knee", &id) == MAXDYN_STATUS_UNKNOWN_JOINT);
    EXPECT(strstr(maxdyn_last_error_message(), "\"knee\"") != NULL);
    EXPECT(maxdyn_model_find_frame(m, "camera", &id) == MAXDYN_STATUS_UNKNOWN_FRAME);
    EXPECT(maxdyn_model_get_frame_pose(m, 1, frame_pose) == MAXDYN_STATUS_UNKNOWN_FRAME);
    EXPECT(maxdyn_model_get_mimic(m, 1, &follower, &leader, &k, &offset) == MAXDYN_STATUS_UNKNOWN_MIMIC);
    EXPECT(maxdyn_model_get_body_name(m, 2, name, sizeof name, &length) == MAXDYN_STATUS_UNKNOWN_BODY);
    EXPECT(maxdyn_model_get_joint_limits(m, elbow, lower_limit, upper_limit, 2) == MAXDYN_STATUS_WRONG_LENGTH);
    EXPECT(strcmp(maxdyn_status_string(MAXDYN_STATUS_UNKNOWN_FRAME), "unknown frame") == 0);

    maxdyn_model_free(m);
    EXPECT(maxdyn_debug_live_objects() == 0);
    printf("model from C: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
