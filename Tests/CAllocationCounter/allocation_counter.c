// The malloc family of the test binary: symbols in an executable come before libc's in every
// lookup, so every heap allocation of the process passes here. Each is counted, then made by
// glibc's own entry points (__libc_malloc and friends), which glibc exports for this purpose.
#define _GNU_SOURCE
#include "allocation_counter.h"

#include <errno.h>
#include <execinfo.h>
#include <stddef.h>
#include <unistd.h>

// Under a sanitizer, which brings its own allocator and intercepts these names, nothing is
// counted: the tests that need the count skip.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define VITRINE_COUNTER_OFF 1
#endif
#endif

#ifdef VITRINE_COUNTER_OFF

bool allocation_counter_is_active(void) { return false; }
uint64_t allocation_counter_thread(void) { return 0; }
uint64_t allocation_counter_process(void) { return 0; }
void allocation_counter_trace(bool on) { (void)on; }

#else

bool allocation_counter_is_active(void) { return true; }

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

// initial-exec: the executable's own thread-local block, which needs no allocation to reach.
#define THREAD_LOCAL _Thread_local __attribute__((tls_model("initial-exec")))

static THREAD_LOCAL uint64_t thread_count;
static THREAD_LOCAL bool tracing;
static THREAD_LOCAL bool inside_trace;
static uint64_t process_count;

static void count(void) {
    thread_count += 1;
    __atomic_fetch_add(&process_count, 1, __ATOMIC_RELAXED);
    if (tracing && !inside_trace) {
        // backtrace may allocate the first time (it loads the unwinder): not traced.
        inside_trace = true;
        void *frames[24];
        int depth = backtrace(frames, 24);
        static const char rule[] = "--- allocation\n";
        (void)!write(2, rule, sizeof rule - 1);
        backtrace_symbols_fd(frames, depth, 2);
        inside_trace = false;
    }
}

uint64_t allocation_counter_thread(void) { return thread_count; }
uint64_t allocation_counter_process(void) { return __atomic_load_n(&process_count, __ATOMIC_RELAXED); }
void allocation_counter_trace(bool on) { tracing = on; }

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
    count();
    return __libc_calloc(n, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

#endif
