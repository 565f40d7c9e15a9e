// SPDX-License-Identifier: Apache-2.0
/* Interrupt flag polled inside long computations (band LU, rod Jacobian
 * assembly, the integration driver), so that a signal handler setting a
 * sig_atomic_t is acted on within a fraction of a second even when one
 * step takes minutes (N = 10^6).  One flag per thread: concurrent runs in
 * other threads are not affected. */
#include <stddef.h>

#include "cosrod/status.h"

static _Thread_local const volatile sig_atomic_t *interrupt_flag;

const volatile sig_atomic_t *cosrod_interrupt_install(const volatile sig_atomic_t *flag) {
  const volatile sig_atomic_t *old = interrupt_flag;
  interrupt_flag = flag;
  return old;
}

int cosrod_interrupt_pending(void) {
  const volatile sig_atomic_t *f = interrupt_flag;
  return f != NULL && *f != 0;
}
