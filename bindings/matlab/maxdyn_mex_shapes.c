/*
 * maxdyn_mex commands on collision shapes (docs/COLLISION.md):
 *
 *   id = maxdyn_mex('builder_add_shape', b, body, type, params, pose)
 *        type 0 plane, 1 sphere, 2 capsule, 3 box, 4 cylinder; params [] / r / [r h] /
 *        [hx hy hz] / [r h]; pose = [x y z qw qx qy qz] in the body frame; body -1: world
 *   maxdyn_mex('builder_set_shape_friction', b, shape, mu)
 *   maxdyn_mex('builder_set_collision_filter', b, shape, group, mask)   0 .. 2^32-1
 *   maxdyn_mex('builder_exclude_shape_pair', b, shape_a, shape_b)
 *   maxdyn_mex('builder_set_collision_cone', b, cone_type, directions)
 *   maxdyn_mex('builder_set_jointed_bodies_collide', b, collide)          0 or 1
 *   n = maxdyn_mex('builder_shape_count', b)
 *   [b, warnings] = maxdyn_mex('builder_from_urdf_with', path, options, srdf_path, srdf)
 *        options = [floating merge_fixed joint_limits collision ground_plane self_collision
 *        bound_mass bound_inertia world_meshes_as_trimesh] (the last three may be left out:
 *        0, no bound, hulls; or only the last); srdf_path
 *        (an SRDF file) and srdf (SRDF text), both optional, '' for none
 *   n = maxdyn_mex('model_shape_count', m)
 *   [type, body, pose, params] = maxdyn_mex('model_shape', m, shape)
 *   [mu, group, mask] = maxdyn_mex('model_shape_surface', m, shape)
 *   yes = maxdyn_mex('model_shapes_may_collide', m, shape_a, shape_b)     1 or 0
 *   C = maxdyn_mex('sim_shape_contacts', s)
 *        16 x n, a column per contact point of the last step: shape a, shape b, body a,
 *        body b (-1: world), point (3), normal (3, from b to a), gap, normal force,
 *        friction force (3, world, on body a)
 *
 * Ids are the C API's (0-based, the world is -1).
 */

#include <stdio.h>
#include <string.h>

#include "maxdyn_mex.h"

static maxdyn_builder *builder_arg(const mxArray *a) { return (maxdyn_builder *)handle_arg(a, KIND_BUILDER)->ptr; }
static const maxdyn_model *model_arg(const mxArray *a) { return (const maxdyn_model *)handle_arg(a, KIND_MODEL)->ptr; }

/* A collision group or mask: an integer from 0 to 2^32 - 1. */
static uint32_t bits_arg(const mxArray *a, const char *name) {
    char msg[160];
    double v = scalar_arg(a, name);
    if (!(v >= 0.0 && v <= 4294967295.0) || v != (double)(uint32_t)v) {
        snprintf(msg, sizeof msg, "argument `%s` must be an integer from 0 to 2^32-1", name);
        fail("maxdyn:arguments", msg);
    }
    return (uint32_t)v;
}

/* An optional string argument (`prhs[i]`, '' or absent: NULL), mxMalloc'ed. */
static char *optional_string(int nrhs, const mxArray *prhs[], int i, const char *name) {
    char msg[160];
    if (nrhs <= i || mxIsEmpty(prhs[i])) return NULL;
    if (!mxIsChar(prhs[i])) {
        snprintf(msg, sizeof msg, "argument `%s` must be a string", name);
        fail("maxdyn:arguments", msg);
    }
    return mxArrayToString(prhs[i]);
}

/* A URDF load with options; the warnings go into a buffer of their reported length. */
static void from_urdf_with(mxArray *plhs[], int nlhs, int nrhs, const mxArray *prhs[]) {
    char path[4096];
    maxdyn_urdf_options o = maxdyn_urdf_options_default();
    const double *v;
    maxdyn_builder *b = NULL, *again = NULL;
    size_t len = 0, n;
    char *text;
    maxdyn_status st;
    uint64_t h;
    need_args(nrhs, 3, "builder_from_urdf_with");
    if (!mxIsChar(prhs[1]) || mxGetString(prhs[1], path, sizeof path) != 0) fail("maxdyn:arguments", "argument `path` must be a string");
    n = real_array_len(prhs[2], "options");
    if (n != 6 && n != 8 && n != 9) fail("maxdyn:arguments", "argument `options` must be a real double array of 6, 8 or 9 elements");
    v = mxGetPr(prhs[2]);
    o.floating = (int32_t)v[0];
    o.merge_fixed = (int32_t)v[1];
    o.joint_limits = (int32_t)v[2];
    o.collision = (int32_t)v[3];
    o.ground_plane = (int32_t)v[4];
    o.self_collision = (int32_t)v[5];
    if (n >= 8) {
        o.bound_mass = v[6];
        o.bound_inertia = v[7];
    }
    if (n == 9) o.world_meshes_as_trimesh = (int32_t)v[8];
    o.srdf_path = optional_string(nrhs, prhs, 3, "srdf_path");
    o.srdf_string = optional_string(nrhs, prhs, 4, "srdf");
    check(maxdyn_builder_from_urdf_with(path, &o, &b, NULL, 0, &len));
    h = register_object(KIND_BUILDER, b, NULL, 0);
    if (!h) fail("maxdyn:memory", "out of memory");
    plhs[0] = handle_out(h);
    if (nlhs < 2) return;
    text = (char *)mxMalloc(len + 1);
    st = maxdyn_builder_from_urdf_with(path, &o, &again, text, len + 1, NULL);
    if (st == MAXDYN_STATUS_OK) maxdyn_builder_free(again);
    if (st != MAXDYN_STATUS_OK) mxFree(text);
    check(st);
    plhs[1] = mxCreateString(text);
    mxFree(text);
}

static int builder_shapes_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "builder_add_shape")) {
        int32_t id = -1;
        size_t n;
        need_args(nrhs, 6, cmd);
        n = real_array_len(prhs[4], "params");
        check(maxdyn_builder_add_shape(builder_arg(prhs[1]), int_arg(prhs[2], "body"), int_arg(prhs[3], "type"),
                                       vec_arg(prhs[5], 7, "pose"), n ? mxGetPr(prhs[4]) : NULL, n, &id));
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "builder_add_hull_shape")) {
        /* points: an n x 3 matrix (one point per row) or 3n values x1 y1 z1 x2 ... */
        int32_t id = -1;
        size_t n;
        double *xyz;
        need_args(nrhs, 5, cmd);
        n = real_array_len(prhs[3], "points");
        if (n % 3 != 0) {
            fail("maxdyn:arguments", "argument `points` must hold x, y, z per point (an n x 3 matrix)");
        }
        xyz = (double *)mxMalloc((n ? n : 1) * sizeof(double));
        if (mxGetN(prhs[3]) == 3 && mxGetM(prhs[3]) * 3 == n && n > 3) {
            /* column-major n x 3 to x, y, z per point */
            size_t k, np = n / 3;
            const double *m = mxGetPr(prhs[3]);
            for (k = 0; k < np; k++) {
                xyz[3 * k] = m[k];
                xyz[3 * k + 1] = m[np + k];
                xyz[3 * k + 2] = m[2 * np + k];
            }
        } else if (n) {
            memcpy(xyz, mxGetPr(prhs[3]), n * sizeof(double));
        }
        {
            maxdyn_status st = maxdyn_builder_add_hull_shape(builder_arg(prhs[1]), int_arg(prhs[2], "body"),
                                                             vec_arg(prhs[4], 7, "pose"), xyz, n / 3, &id);
            mxFree(xyz);
            check(st);
        }
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "builder_set_shape_friction")) {
        need_args(nrhs, 4, cmd);
        check(maxdyn_builder_set_shape_friction(builder_arg(prhs[1]), int_arg(prhs[2], "shape"), scalar_arg(prhs[3], "mu")));
    } else if (!strcmp(cmd, "builder_set_collision_filter")) {
        need_args(nrhs, 5, cmd);
        check(maxdyn_builder_set_collision_filter(builder_arg(prhs[1]), int_arg(prhs[2], "shape"), bits_arg(prhs[3], "group"),
                                                  bits_arg(prhs[4], "mask")));
    } else if (!strcmp(cmd, "builder_exclude_shape_pair")) {
        need_args(nrhs, 4, cmd);
        check(maxdyn_builder_exclude_shape_pair(builder_arg(prhs[1]), int_arg(prhs[2], "shape_a"), int_arg(prhs[3], "shape_b")));
    } else if (!strcmp(cmd, "builder_set_collision_cone")) {
        need_args(nrhs, 4, cmd);
        check(maxdyn_builder_set_collision_cone(builder_arg(prhs[1]), int_arg(prhs[2], "cone_type"), int_arg(prhs[3], "directions")));
    } else if (!strcmp(cmd, "builder_set_jointed_bodies_collide")) {
        need_args(nrhs, 3, cmd);
        check(maxdyn_builder_set_jointed_bodies_collide(builder_arg(prhs[1]), int_arg(prhs[2], "collide")));
    } else if (!strcmp(cmd, "builder_shape_count")) {
        int32_t n = 0;
        need_args(nrhs, 2, cmd);
        check(maxdyn_builder_get_shape_count(builder_arg(prhs[1]), &n));
        plhs[0] = mxCreateDoubleScalar(n);
    } else if (!strcmp(cmd, "builder_from_urdf_with")) {
        from_urdf_with(plhs, nlhs, nrhs, prhs);
    } else {
        return 0;
    }
    return 1;
}

static int model_shapes_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "model_shape_count")) {
        int32_t n = 0;
        need_args(nrhs, 2, cmd);
        check(maxdyn_model_get_shape_count(model_arg(prhs[1]), &n));
        plhs[0] = mxCreateDoubleScalar(n);
    } else if (!strcmp(cmd, "model_shapes_may_collide")) {
        int32_t yes = -1;
        need_args(nrhs, 4, cmd);
        check(maxdyn_model_get_shapes_may_collide(model_arg(prhs[1]), int_arg(prhs[2], "shape_a"), int_arg(prhs[3], "shape_b"), &yes));
        plhs[0] = mxCreateDoubleScalar(yes);
    } else if (!strcmp(cmd, "model_shape")) {
        int32_t type = -1, body = -1;
        double pose[7], params[3];
        size_t n = 0;
        need_args(nrhs, 3, cmd);
        check(maxdyn_model_get_shape(model_arg(prhs[1]), int_arg(prhs[2], "shape"), &type, &body, pose, params, &n));
        plhs[0] = mxCreateDoubleScalar(type);
        if (nlhs > 1) plhs[1] = mxCreateDoubleScalar(body);
        if (nlhs > 2) {
            plhs[2] = mxCreateDoubleMatrix(7, 1, mxREAL);
            memcpy(mxGetPr(plhs[2]), pose, sizeof pose);
        }
        if (nlhs > 3) {
            plhs[3] = mxCreateDoubleMatrix(n, 1, mxREAL);
            if (n) memcpy(mxGetPr(plhs[3]), params, n * sizeof(double));
        }
    } else if (!strcmp(cmd, "model_shape_surface")) {
        const maxdyn_model *m;
        int32_t shape;
        double mu = 0.0;
        uint32_t group = 0, mask = 0;
        need_args(nrhs, 3, cmd);
        m = model_arg(prhs[1]);
        shape = int_arg(prhs[2], "shape");
        check(maxdyn_model_get_shape_friction(m, shape, &mu));
        check(maxdyn_model_get_collision_filter(m, shape, &group, &mask));
        plhs[0] = mxCreateDoubleScalar(mu);
        if (nlhs > 1) plhs[1] = mxCreateDoubleScalar(group);
        if (nlhs > 2) plhs[2] = mxCreateDoubleScalar(mask);
    } else {
        return 0;
    }
    return 1;
}

/* The contact points between collision shapes of the last step, a column each. */
static int sim_shapes_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    maxdyn_sim *sim;
    maxdyn_shape_contact *c;
    int32_t n = 0;
    size_t written = 0, k;
    double *out;
    (void)nlhs;
    if (strcmp(cmd, "sim_shape_contacts")) return 0;
    need_args(nrhs, 2, cmd);
    sim = (maxdyn_sim *)handle_arg(prhs[1], KIND_SIM)->ptr;
    check(maxdyn_sim_get_shape_contact_count(sim, &n));
    c = (maxdyn_shape_contact *)mxMalloc((n > 0 ? (size_t)n : 1) * sizeof *c);
    {
        maxdyn_status st = maxdyn_sim_get_shape_contacts(sim, c, (size_t)n, &written);
        if (st != MAXDYN_STATUS_OK) mxFree(c);
        check(st);
    }
    plhs[0] = mxCreateDoubleMatrix(16, written, mxREAL);
    out = mxGetPr(plhs[0]);
    for (k = 0; k < written; k++, out += 16) {
        out[0] = c[k].shape_a;
        out[1] = c[k].shape_b;
        out[2] = c[k].body_a;
        out[3] = c[k].body_b;
        memcpy(out + 4, c[k].point, 3 * sizeof(double));
        memcpy(out + 7, c[k].normal, 3 * sizeof(double));
        out[10] = c[k].gap;
        out[11] = c[k].normal_force;
        memcpy(out + 12, c[k].friction_force, 3 * sizeof(double));
    }
    mxFree(c);
    return 1;
}

int shapes_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    return builder_shapes_command(cmd, nlhs, plhs, nrhs, prhs) || model_shapes_command(cmd, nlhs, plhs, nrhs, prhs) || sim_shapes_command(cmd, nlhs, plhs, nrhs, prhs);
}
