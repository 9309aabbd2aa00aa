/* Checks shared by the C test programs (tests/capi_*.c): OK(call) returns 1 from main
 * with the call and its error message when the call fails; EXPECT(cond) counts a failure
 * in `failures` and goes on. */
#ifndef MAXDYN_C_CHECKS_H
#define MAXDYN_C_CHECKS_H

#include <stdio.h>

#include "maxdyn.h"

#define OK(call)                                                                      \
    do {                                                                              \
        maxdyn_status st_ = (call);                                                   \
        if (st_ != MAXDYN_STATUS_OK) {                                                \
            printf("%s failed: %s\n", #call, maxdyn_last_error_message());           \
            return 1;                                                                 \
        }                                                                             \
    } while (0)
#define EXPECT(cond)                                              \
    do {                                                          \
        if (!(cond)) {                                            \
            printf("line %d: expected %s\n", __LINE__, #cond);    \
            failures++;                                           \
        }                                                         \
    } while (0)

#endif
