/*
 * maxdyn_mex commands on names, structure, joint limits, mimics and frames:
 *
 *   maxdyn_mex('builder_set_body_name', b, body, name)      names: non-empty strings
 *   maxdyn_mex('builder_set_joint_name', b, joint, name)
 *   maxdyn_mex('builder_set_joint_limits', b, joint, lower, upper)   -Inf / Inf: free
 *   id = maxdyn_mex('builder_add_mimic', b, follower, leader, multiplier, offset)
 *   id = maxdyn_mex('builder_add_frame', b, name, body, pose)   pose = [x y z qw qx qy qz]
 *   s = maxdyn_mex('model_body_name', m, id)        also model_joint_name, model_frame_name
 *   id = maxdyn_mex('model_find_body', m, name)     also model_find_joint, model_find_frame
 *   maxdyn_mex('model_joint_type' | 'model_joint_parent' | 'model_joint_child', m, joint)
 *   maxdyn_mex('model_body_mass', m, body), J = maxdyn_mex('model_body_inertia', m, body)
 *   maxdyn_mex('model_frame_count', m), maxdyn_mex('model_frame_body', m, frame)
 *   pose = maxdyn_mex('model_frame_pose', m, frame)                    7x1
 *   maxdyn_mex('model_limit_count', m), [lo, hi] = maxdyn_mex('model_joint_limits', m, joint)
 *   maxdyn_mex('model_mimic_count', m)
 *   r = maxdyn_mex('model_mimic', m, id)            [follower leader multiplier offset]
 *
 * Ids are the C API's (0-based, the world is -1).
 */

#include <stdio.h>
#include <string.h>

#include "maxdyn_mex.h"

/* A string argument, mxMalloc'ed (mxFree it; MATLAB frees it at exit of the call too). */
static char *string_arg(const mxArray *a, const char *name) {
    char msg[160];
    char *s = mxIsChar(a) ? mxArrayToString(a) : NULL;
    if (!s) {
        snprintf(msg, sizeof msg, "argument `%s` must be a string", name);
        fail("maxdyn:arguments", msg);
    }
    return s;
}

static maxdyn_builder *builder_arg(const mxArray *a) { return (maxdyn_builder *)handle_arg(a, KIND_BUILDER)->ptr; }
static const maxdyn_model *model_arg(const mxArray *a) { return (const maxdyn_model *)handle_arg(a, KIND_MODEL)->ptr; }

typedef maxdyn_status (*name_getter)(const maxdyn_model *, int32_t, char *, size_t, size_t *);
typedef maxdyn_status (*finder)(const maxdyn_model *, const char *, int32_t *);
typedef maxdyn_status (*joint_reader)(const maxdyn_model *, int32_t, int32_t *);

/* The whole name: its length first, then a buffer that fits it. */
static mxArray *name_out(const maxdyn_model *m, name_getter get, int32_t id) {
    size_t len = 0, again = 0;
    char *buf;
    mxArray *out;
    maxdyn_status st;
    check(get(m, id, NULL, 0, &len));
    buf = (char *)mxMalloc(len + 1);
    st = get(m, id, buf, len + 1, &again);
    if (st != MAXDYN_STATUS_OK) mxFree(buf);
    check(st);
    out = mxCreateString(buf);
    mxFree(buf);
    return out;
}

static mxArray *find_out(const maxdyn_model *m, finder find, const mxArray *name) {
    int32_t id = -1;
    char *s = string_arg(name, "name");
    maxdyn_status st = find(m, s, &id);
    mxFree(s);
    check(st);
    return mxCreateDoubleScalar(id);
}

static int builder_command(const char *cmd, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "builder_set_body_name") || !strcmp(cmd, "builder_set_joint_name")) {
        maxdyn_builder *b;
        int32_t id;
        char *s;
        maxdyn_status st;
        need_args(nrhs, 4, cmd);
        b = builder_arg(prhs[1]);
        id = int_arg(prhs[2], cmd[12] == 'b' ? "body" : "joint");
        s = string_arg(prhs[3], "name");
        st = cmd[12] == 'b' ? maxdyn_builder_set_body_name(b, id, s) : maxdyn_builder_set_joint_name(b, id, s);
        mxFree(s);
        check(st);
    } else if (!strcmp(cmd, "builder_set_joint_limits")) {
        size_t n;
        need_args(nrhs, 5, cmd);
        n = real_array_len(prhs[3], "lower");
        check(maxdyn_builder_set_joint_limits(builder_arg(prhs[1]), int_arg(prhs[2], "joint"), mxGetPr(prhs[3]),
                                              vec_arg(prhs[4], n, "upper"), n));
    } else if (!strcmp(cmd, "builder_add_mimic")) {
        int32_t id = -1;
        need_args(nrhs, 6, cmd);
        check(maxdyn_builder_add_mimic(builder_arg(prhs[1]), int_arg(prhs[2], "follower"), int_arg(prhs[3], "leader"),
                                       scalar_arg(prhs[4], "multiplier"), scalar_arg(prhs[5], "offset"), &id));
        plhs[0] = mxCreateDoubleScalar(id);
    } else if (!strcmp(cmd, "builder_add_frame")) {
        maxdyn_builder *b;
        int32_t id = -1, body;
        const double *pose;
        char *s;
        maxdyn_status st;
        need_args(nrhs, 5, cmd);
        b = builder_arg(prhs[1]);
        body = int_arg(prhs[3], "body");
        pose = vec_arg(prhs[4], 7, "pose");
        s = string_arg(prhs[2], "name");
        st = maxdyn_builder_add_frame(b, s, body, pose, &id);
        mxFree(s);
        check(st);
        plhs[0] = mxCreateDoubleScalar(id);
    } else {
        return 0;
    }
    return 1;
}

static int model_names_command(const char *cmd, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    static const struct { const char *cmd; name_getter get; finder find; } by_name[] = {
        {"body", maxdyn_model_get_body_name, maxdyn_model_find_body},
        {"joint", maxdyn_model_get_joint_name, maxdyn_model_find_joint},
        {"frame", maxdyn_model_get_frame_name, maxdyn_model_find_frame},
    };
    static const struct { const char *cmd; joint_reader read; } joint[] = {
        {"model_joint_type", maxdyn_model_get_joint_type},
        {"model_joint_parent", maxdyn_model_get_joint_parent},
        {"model_joint_child", maxdyn_model_get_joint_child},
    };
    char name_cmd[64], find_cmd[64];
    size_t k;
    for (k = 0; k < 3; k++) {
        snprintf(name_cmd, sizeof name_cmd, "model_%s_name", by_name[k].cmd);
        snprintf(find_cmd, sizeof find_cmd, "model_find_%s", by_name[k].cmd);
        if (!strcmp(cmd, name_cmd)) {
            need_args(nrhs, 3, cmd);
            plhs[0] = name_out(model_arg(prhs[1]), by_name[k].get, int_arg(prhs[2], by_name[k].cmd));
            return 1;
        }
        if (!strcmp(cmd, find_cmd)) {
            need_args(nrhs, 3, cmd);
            plhs[0] = find_out(model_arg(prhs[1]), by_name[k].find, prhs[2]);
            return 1;
        }
    }
    for (k = 0; k < 3; k++) {
        if (!strcmp(cmd, joint[k].cmd)) {
            int32_t v = -1;
            need_args(nrhs, 3, cmd);
            check(joint[k].read(model_arg(prhs[1]), int_arg(prhs[2], "joint"), &v));
            plhs[0] = mxCreateDoubleScalar(v);
            return 1;
        }
    }
    return 0;
}

static int model_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    if (!strcmp(cmd, "model_body_mass")) {
        double mass = 0.0;
        need_args(nrhs, 3, cmd);
        check(maxdyn_model_get_body_mass(model_arg(prhs[1]), int_arg(prhs[2], "body"), &mass));
        plhs[0] = mxCreateDoubleScalar(mass);
    } else if (!strcmp(cmd, "model_body_inertia")) {
        double rowmajor[9], *o;
        int r, c;
        need_args(nrhs, 3, cmd);
        check(maxdyn_model_get_body_inertia(model_arg(prhs[1]), int_arg(prhs[2], "body"), rowmajor));
        plhs[0] = mxCreateDoubleMatrix(3, 3, mxREAL);
        o = mxGetPr(plhs[0]);
        for (r = 0; r < 3; r++)
            for (c = 0; c < 3; c++) o[3 * c + r] = rowmajor[3 * r + c];  /* MATLAB is column-major */
    } else if (!strcmp(cmd, "model_frame_count") || !strcmp(cmd, "model_limit_count") || !strcmp(cmd, "model_mimic_count")) {
        int32_t n = 0;
        need_args(nrhs, 2, cmd);
        check(cmd[6] == 'f' ? maxdyn_model_get_frame_count(model_arg(prhs[1]), &n)
              : cmd[6] == 'l' ? maxdyn_model_get_limit_count(model_arg(prhs[1]), &n)
                              : maxdyn_model_get_mimic_count(model_arg(prhs[1]), &n));
        plhs[0] = mxCreateDoubleScalar(n);
    } else if (!strcmp(cmd, "model_frame_body")) {
        int32_t body = -1;
        need_args(nrhs, 3, cmd);
        check(maxdyn_model_get_frame_body(model_arg(prhs[1]), int_arg(prhs[2], "frame"), &body));
        plhs[0] = mxCreateDoubleScalar(body);
    } else if (!strcmp(cmd, "model_frame_pose")) {
        double pose[7];
        need_args(nrhs, 3, cmd);
        check(maxdyn_model_get_frame_pose(model_arg(prhs[1]), int_arg(prhs[2], "frame"), pose));
        plhs[0] = mxCreateDoubleMatrix(7, 1, mxREAL);
        memcpy(mxGetPr(plhs[0]), pose, sizeof pose);
    } else if (!strcmp(cmd, "model_joint_limits")) {
        const maxdyn_model *m;
        int32_t joint, dof = 0;
        double lo[6], hi[6];
        need_args(nrhs, 3, cmd);
        m = model_arg(prhs[1]);
        joint = int_arg(prhs[2], "joint");
        check(maxdyn_model_get_joint_dof(m, joint, &dof));
        check(maxdyn_model_get_joint_limits(m, joint, lo, hi, (size_t)dof));  /* dof <= 6 */
        plhs[0] = mxCreateDoubleMatrix((size_t)dof, 1, mxREAL);
        memcpy(mxGetPr(plhs[0]), lo, (size_t)dof * sizeof(double));
        if (nlhs > 1) {
            plhs[1] = mxCreateDoubleMatrix((size_t)dof, 1, mxREAL);
            memcpy(mxGetPr(plhs[1]), hi, (size_t)dof * sizeof(double));
        }
    } else if (!strcmp(cmd, "model_mimic")) {
        int32_t follower = -1, leader = -1;
        double multiplier = 0.0, offset = 0.0, *o;
        need_args(nrhs, 3, cmd);
        check(maxdyn_model_get_mimic(model_arg(prhs[1]), int_arg(prhs[2], "mimic"), &follower, &leader, &multiplier, &offset));
        plhs[0] = mxCreateDoubleMatrix(1, 4, mxREAL);
        o = mxGetPr(plhs[0]);
        o[0] = follower; o[1] = leader; o[2] = multiplier; o[3] = offset;
    } else {
        return model_names_command(cmd, plhs, nrhs, prhs);
    }
    return 1;
}

int names_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    return builder_command(cmd, plhs, nrhs, prhs) || model_command(cmd, nlhs, plhs, nrhs, prhs);
}
