/*
 * maxdyn_mex commands for recordings the viewer plays (maxdyn_sim_record_open,
 * maxdyn_recorder_add_frame, maxdyn_recorder_close):
 *
 *   r = maxdyn_mex('sim_record_open', s, path)   writes s's model to path; a recorder handle
 *   maxdyn_mex('recorder_add_frame', r, s)       appends s's time, poses and contact forces
 *   maxdyn_mex('recorder_close', r)              finishes the file; the handle is gone
 *
 * A recorder freed without recorder_close ('free', or at exit) is closed then, unchecked.
 */

#include <string.h>

#include "maxdyn_mex.h"

int record_command(const char *cmd, int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]) {
    (void)nlhs;
    if (!strcmp(cmd, "sim_record_open")) {
        maxdyn_recorder *r = NULL;
        char *path;
        maxdyn_status st;
        uint64_t id;
        need_args(nrhs, 3, cmd);
        if (!mxIsChar(prhs[2])) fail("maxdyn:arguments", "argument `path` must be a char array");
        path = mxArrayToString(prhs[2]);
        if (!path) fail("maxdyn:arguments", "argument `path` cannot be read");
        st = maxdyn_sim_record_open((maxdyn_sim *)handle_arg(prhs[1], KIND_SIM)->ptr, path, &r);
        mxFree(path);
        check(st);
        id = register_object(KIND_RECORDER, r, NULL, 0);
        if (!id) fail("maxdyn:memory", "out of memory registering the recorder");
        plhs[0] = handle_out(id);
    } else if (!strcmp(cmd, "recorder_add_frame")) {
        maxdyn_recorder *r;
        need_args(nrhs, 3, cmd);
        r = (maxdyn_recorder *)handle_arg(prhs[1], KIND_RECORDER)->ptr;
        check(maxdyn_recorder_add_frame(r, (maxdyn_sim *)handle_arg(prhs[2], KIND_SIM)->ptr));
    } else if (!strcmp(cmd, "recorder_close")) {
        need_args(nrhs, 2, cmd);
        check(maxdyn_recorder_close((maxdyn_recorder *)take_object(prhs[1], KIND_RECORDER)));
    } else {
        return 0;
    }
    return 1;
}
