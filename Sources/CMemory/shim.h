// Memory operations the renderer's pixel loops need and Swift cannot express: wmemset from
// <wchar.h> (a 32-bit fill with the widest stores the CPU has, chosen at run time; Swift's
// Glibc module does not import it) and a cache prefetch hint.
#include <wchar.h>

/// Asks the CPU to bring the cache line at `address` towards the core, to be written. A hint:
/// no effect on the program's meaning, never a fault.
static inline void vitrine_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}
