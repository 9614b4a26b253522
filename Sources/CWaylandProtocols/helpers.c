#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include "CWaylandProtocols.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4  // <linux/mman.h>; glibc 2.36's <sys/mman.h> lacks it
#endif

const struct wl_interface *vitrine_wl_compositor_interface(void) { return &wl_compositor_interface; }
const struct wl_interface *vitrine_wl_shm_interface(void) { return &wl_shm_interface; }
const struct wl_interface *vitrine_wl_output_interface(void) { return &wl_output_interface; }
const struct wl_interface *vitrine_wl_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *vitrine_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
const struct wl_interface *vitrine_wp_presentation_interface(void) { return &wp_presentation_interface; }
const struct wl_interface *vitrine_zwp_idle_inhibit_manager_v1_interface(void) {
    return &zwp_idle_inhibit_manager_v1_interface;
}

int vitrine_memfd_create(const char *name, unsigned int flags) { return memfd_create(name, flags); }
unsigned int vitrine_memfd_cloexec_sealing(void) { return MFD_CLOEXEC | MFD_ALLOW_SEALING; }
int vitrine_seal_against_shrinking(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK); }

int vitrine_move_mapping(void *from, size_t size, void *to, int keep_source) {
    int flags = MREMAP_MAYMOVE | MREMAP_FIXED | (keep_source ? MREMAP_DONTUNMAP : 0);
    return mremap(from, size, size, flags, to) == to ? 0 : -1;
}
