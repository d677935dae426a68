/*
 * yarngym.h: the C ABI of libyarngym, a c-shared build of yarngym's Go
 * environments (go build -buildmode=c-shared ./bindings/capi).
 *
 * Hand-written. The Go exports include this header in their cgo preamble,
 * so the C compiler checks every prototype below against the Go code.
 * Pointer parameters are not declared const for that reason: a "read-only"
 * note says which ones the library only reads.
 *
 * Rules:
 *   - Every function returns an int32_t status: YG_OK or a YG_ERR_* code.
 *     On an error, yg_last_error gives the message (kept per calling thread,
 *     like errno, until the next error on that thread).
 *   - The caller owns every buffer. The library reads and writes them only
 *     during the call and keeps no pointer to them afterwards; no pointer
 *     to Go memory is ever handed out.
 *   - A panic inside the library (a bug in yarngym) becomes YG_ERR_PANIC,
 *     never a crash, wherever it happens: in an environment's engine, in a
 *     run, in an export. It poisons the handle the call was on: every later
 *     call on that handle (but free) returns YG_ERR_PANIC too, its message
 *     naming the original panic; free it and create a new one. (Python
 *     raises yarngym.YarnGymPanic, a YarnGymError, for YG_ERR_PANIC.)
 *   - Handles are positive and never reused; freeing a handle twice, or an
 *     unknown handle, is harmless. A handle may be used from any thread;
 *     calls on one handle are serialised.
 *   - Do not fork a process after the library is loaded (the Go runtime
 *     does not survive fork): start worker processes with spawn.
 *
 * A batch is N independent environments built from one JSON config with
 * the fields of Go's env.Config:
 *   {"scenario": "quick", "sets": ["KEY=VALUE"], "policy": "fair",
 *    "controlled": ["max_am_share"], "bounds": {"max_am_share": [0, 1]},
 *    "control_interval_s": 60, "horizon_s": 3600, "max_steps": 0,
 *    "reward": {"slowdown": 1}}
 * (see yarngym/env's package doc for the observation features, the action
 * and the reward objectives). Buffers are flat, env-major: env i's
 * observation is obs[i*obs_dim .. (i+1)*obs_dim), its action
 * actions[i*act_dim .. (i+1)*act_dim), and so on.
 */
#ifndef YARNGYM_H
#define YARNGYM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "yarngym_api.h"

#ifdef __cplusplus
}
#endif

#endif /* YARNGYM_H */
