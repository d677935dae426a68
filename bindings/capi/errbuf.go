package main

// The calling thread's last error, kept per C thread (like errno): a cffi
// or ctypes call releases the GIL, so two Python threads may fail at once,
// and each reads its own message. An exported Go function runs on the C
// thread that called it, so yg_internal_set_error stores the message for
// that thread. It lives in a pthread key (freed when the thread exits), not
// in a _Thread_local buffer: the Go runtime's TLS in a c-shared library is
// initial-exec, so the library's whole TLS segment must fit glibc's small
// static TLS surplus when it is dlopen'ed.

/*
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "yarngym.h"

typedef struct {
	int32_t len;
	char msg[];
} yg_err_t;

static pthread_key_t yg_err_key;
static pthread_once_t yg_err_once = PTHREAD_ONCE_INIT;

static void yg_err_init(void) { pthread_key_create(&yg_err_key, free); }

__attribute__((visibility("hidden"))) void yg_internal_set_error(char *msg, int32_t n) {
	pthread_once(&yg_err_once, yg_err_init);
	if (n < 0) n = 0;
	yg_err_t *e = malloc(sizeof(yg_err_t) + (size_t)n + 1);
	if (!e) return;
	e->len = n;
	memcpy(e->msg, msg, (size_t)n);
	e->msg[n] = 0;
	free(pthread_getspecific(yg_err_key));
	pthread_setspecific(yg_err_key, e);
}

int32_t yg_last_error(char *buf, int32_t cap, int32_t *len) {
	pthread_once(&yg_err_once, yg_err_init);
	yg_err_t *e = pthread_getspecific(yg_err_key);
	int32_t n = e ? e->len : 0;
	if (len) *len = n;
	if (buf && cap > 0) {
		int32_t k = n < cap - 1 ? n : cap - 1;
		if (k > 0) memcpy(buf, e->msg, (size_t)k);
		buf[k] = 0;
	}
	return YG_OK;
}
*/
import "C"
