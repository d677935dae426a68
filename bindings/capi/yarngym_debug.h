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

#include "yarngym_debug_api.h"

#endif /* YARNGYM_DEBUG_H */
