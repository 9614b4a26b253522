// Memory operations the renderer's pixel loops need and Swift cannot express: wmemset from
// <wchar.h> (a 32-bit fill with the widest stores the CPU has, chosen at run time; Swift's
// Glibc module does not import it), cache prefetch hints, glibc's mallopt, counters that
// several threads add to without a lock, and flags one thread publishes work with.
#include <wchar.h>
#include <malloc.h>
#include <stdint.h>

/// Makes glibc map every allocation of at least `bytes` on its own (mallopt M_MMAP_THRESHOLD,
/// which also turns off the threshold's dynamic growth), so freeing it unmaps it. Returns
/// whether glibc accepted the value.
static inline int vitrine_map_allocations_from(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

static inline int vitrine_keep_allocations_in_one_heap(void) {
    return mallopt(M_ARENA_MAX, 1);
}

/// Asks the CPU to bring the cache line at `address` towards the core, to be written. A hint:
/// no effect on the program's meaning, never a fault.
static inline void vitrine_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

/// Asks the CPU to bring the cache line at `address` towards the core, to be read. A hint.
static inline void vitrine_prefetch_for_read(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Adds `value` to the count at `count` atomically, ordered with nothing else (a statistic
/// read once the threads adding to it are done); returns the new count.
static inline long vitrine_count_add(long *count, long value) {
    return __atomic_add_fetch(count, value, __ATOMIC_RELAXED);
}

/// The count at `count`, read atomically.
static inline long vitrine_count_load(const long *count) {
    return __atomic_load_n(count, __ATOMIC_RELAXED);
}

/// Sets `bits` in the word at `word` atomically, ordered with nothing else: threads drawing
/// side by side mark bits of their own in one word.
static inline void vitrine_bits_set(uint64_t *word, uint64_t bits) {
    __atomic_fetch_or(word, bits, __ATOMIC_RELAXED);
}

/// Clears `bits` in the word at `word` atomically (see `vitrine_bits_set`).
static inline void vitrine_bits_clear(uint64_t *word, uint64_t bits) {
    __atomic_fetch_and(word, ~bits, __ATOMIC_RELAXED);
}

/// The word at `word`, read atomically (see `vitrine_bits_set`).
static inline uint64_t vitrine_bits_load(const uint64_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// The flag at `flag`, read with acquire ordering: what a thread wrote before it stored the
/// value with `vitrine_flag_store` is seen once the value is.
static inline unsigned char vitrine_flag_load(const unsigned char *flag) {
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

/// Stores `value` at `flag` with release ordering (see `vitrine_flag_load`).
static inline void vitrine_flag_store(unsigned char *flag, unsigned char value) {
    __atomic_store_n(flag, value, __ATOMIC_RELEASE);
}
