/*
 * yarngym_debug.h: test hooks of libyarngym, exported only by a library
 * built with the yarngym_debug build tag:
 *
 *   go build -tags yarngym_debug -buildmode=c-shared ./bindings/capi
 *
 * The library the Python package builds and ships has none of this. The
 * tests use it to make the engine misbehave on purpose, which a correct
 * engine never does by itself: a panic inside a step or a run (to test
 * that it is reported as YG_ERR_PANIC and poisons the handle), or SIGINT
 * raised while a step runs in Go (to test Ctrl-C during a step).
 */
#ifndef YARNGYM_DEBUG_H
#define YARNGYM_DEBUG_H

#include <stdint.h>

/* What yg_debug_hook makes the engine do. */
#define YG_DEBUG_NONE 0   /* remove the hook */
#define YG_DEBUG_PANIC 1  /* panic("yg_debug_hook: deliberate panic at T ms") */
#define YG_DEBUG_SIGINT 2 /* send SIGINT to the process, once per episode or run */

/*
 * Hooks the engine: at the first event it processes at or after simulated
 * time at_s, it does `what`. handle > 0: every env of that batch, from its
 * next reset; handle 0: every later yg_run_new (in any thread).
 */
int32_t yg_debug_hook(int64_t handle, int32_t what, double at_s);

#endif /* YARNGYM_DEBUG_H */
