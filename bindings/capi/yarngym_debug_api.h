/*
 * yarngym_debug_api.h: the declarations of yarngym_debug.h, in the form
 * cffi's cdef reads as it is (see yarngym_api.h): no directive but #define.
 */
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
