#ifndef VITRINE_ALLOCATION_COUNTER_H
#define VITRINE_ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Whether allocations are counted (not under a sanitizer, whose allocator takes these names).
bool allocation_counter_is_active(void);

/// Heap allocations (malloc, calloc, realloc, the aligned forms) made by the calling thread
/// since it started. The test binary's own malloc family counts them and hands each call to
/// glibc's allocator: the kiosk's libraries link none of this.
uint64_t allocation_counter_thread(void);

/// Heap allocations made by every thread of the process.
uint64_t allocation_counter_process(void);

/// While on, each allocation the calling thread makes prints its call stack to standard error
/// (to find where a frame allocates; swift demangle reads the names).
void allocation_counter_trace(bool on);

#endif
