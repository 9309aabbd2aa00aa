/* Collision shapes from C (compiled and run by tests/capi_shapes.rs with -std=c99 -Wall
 * -Wextra -Wpedantic -Werror): a ground half-space and a box and a sphere on a body,
 * read back from the model, and the statuses of bad shapes. Prints
 * "shapes from C: N failures". */
#include <math.h>
#include <stdio.h>

#include "c_checks.h"
#include "maxdyn.h"

int main(void) {
    const double J[9] = {0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01};
    const double identity[7] = {0, 0, 0, 1, 0, 0, 0};
    const double lifted[7] = {0, 0, 0.25, 1, 0, 0, 0};
    const double not_unit[7] = {0, 0, 0, 1, 0.5, 0, 0};
    const double half_extents[3] = {0.1, 0.2, 0.3}, radius[1] = {0.05}, negative[1] = {-0.05};
    maxdyn_builder *b = NULL;
    maxdyn_model *m = NULL;
    int32_t body, ground, box, ball, id = -1, n = -1, type = -1, on = -2, may = -1;
    double pose[7], params[3], mu = 0;
    size_t n_params = 9;
    uint32_t group = 0, mask = 0;
    int failures = 0;

    OK(maxdyn_builder_new(&b));
    OK(maxdyn_builder_add_body(b, 1.0, J, &body));
    OK(maxdyn_builder_add_shape(b, MAXDYN_WORLD, MAXDYN_SHAPE_PLANE, identity, NULL, 0, &ground));
    OK(maxdyn_builder_add_shape(b, body, MAXDYN_SHAPE_BOX, identity, half_extents, 3, &box));
    OK(maxdyn_builder_add_shape(b, body, MAXDYN_SHAPE_SPHERE, lifted, radius, 1, &ball));
    OK(maxdyn_builder_set_shape_friction(b, box, 0.3));
    OK(maxdyn_builder_set_collision_filter(b, ball, 2, 0xfffffffeu));
    OK(maxdyn_builder_exclude_shape_pair(b, ground, ball));
    OK(maxdyn_builder_set_collision_cone(b, MAXDYN_CONE_NONLINEAR, 0));
    OK(maxdyn_builder_set_jointed_bodies_collide(b, 1));
    EXPECT(ground == 0 && box == 1 && ball == 2);

    /* bad shapes: their own statuses, nothing added */
    EXPECT(maxdyn_builder_add_shape(b, body, 8, identity, radius, 1, &id) == MAXDYN_STATUS_INVALID_ENUM);
    EXPECT(maxdyn_builder_add_shape(b, body, MAXDYN_SHAPE_SPHERE, identity, negative, 1, &id) == MAXDYN_STATUS_INVALID_SHAPE);
    EXPECT(maxdyn_builder_add_shape(b, body, MAXDYN_SHAPE_SPHERE, not_unit, radius, 1, &id) == MAXDYN_STATUS_INVALID_SHAPE);
    EXPECT(maxdyn_builder_add_shape(b, body, MAXDYN_SHAPE_BOX, identity, half_extents, 2, &id) == MAXDYN_STATUS_INVALID_SHAPE);
    EXPECT(maxdyn_builder_add_shape(b, 5, MAXDYN_SHAPE_SPHERE, identity, radius, 1, &id) == MAXDYN_STATUS_UNKNOWN_BODY);
    EXPECT(maxdyn_builder_set_shape_friction(b, 3, 0.5) == MAXDYN_STATUS_UNKNOWN_SHAPE);
    EXPECT(maxdyn_builder_set_shape_friction(b, box, NAN) == MAXDYN_STATUS_NON_FINITE);
    EXPECT(id == -1);
    OK(maxdyn_builder_get_shape_count(b, &n));
    EXPECT(n == 3);

    OK(maxdyn_model_new(b, &m));
    maxdyn_builder_free(b);
    OK(maxdyn_model_get_shape_count(m, &n));
    EXPECT(n == 3);
    OK(maxdyn_model_get_shape(m, box, &type, &on, pose, params, &n_params));
    EXPECT(type == MAXDYN_SHAPE_BOX && on == body && n_params == 3);
    EXPECT(params[0] == 0.1 && params[1] == 0.2 && params[2] == 0.3);
    OK(maxdyn_model_get_shape(m, ground, &type, &on, pose, params, &n_params));
    EXPECT(type == MAXDYN_SHAPE_PLANE && on == MAXDYN_WORLD && n_params == 0);
    OK(maxdyn_model_get_shape(m, ball, &type, &on, pose, params, &n_params));
    EXPECT(type == MAXDYN_SHAPE_SPHERE && n_params == 1 && params[0] == 0.05 && pose[2] == 0.25 && pose[3] == 1.0);
    OK(maxdyn_model_get_shape_friction(m, box, &mu));
    EXPECT(mu == 0.3);
    OK(maxdyn_model_get_collision_filter(m, ball, &group, &mask));
    EXPECT(group == 2 && mask == 0xfffffffeu);
    OK(maxdyn_model_get_collision_cone(m, &type, &n));
    EXPECT(type == MAXDYN_CONE_NONLINEAR);
    OK(maxdyn_model_get_shapes_may_collide(m, ground, box, &may));
    EXPECT(may == 1);
    OK(maxdyn_model_get_shapes_may_collide(m, ground, ball, &may));
    EXPECT(may == 0); /* excluded */
    OK(maxdyn_model_get_shapes_may_collide(m, box, ball, &may));
    EXPECT(may == 0); /* one body */
    EXPECT(maxdyn_model_get_shape(m, 3, &type, &on, pose, params, &n_params) == MAXDYN_STATUS_UNKNOWN_SHAPE);
    maxdyn_model_free(m);

    printf("shapes from C: %d failures\n", failures);
    return 0;
}
