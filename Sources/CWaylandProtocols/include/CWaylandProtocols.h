#ifndef VITRINE_CWAYLANDPROTOCOLS_H
#define VITRINE_CWAYLANDPROTOCOLS_H

// The client side of the protocols Vitrine speaks beyond the core one, as wayland-scanner made
// it (scripts/generate-wayland-protocols.sh), and what Swift cannot reach of libwayland itself.

#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"

// The interface descriptions wl_registry_bind needs, as pointers (Swift cannot take the
// address of an imported const global reliably).
const struct wl_interface *vitrine_wl_compositor_interface(void);
const struct wl_interface *vitrine_wl_shm_interface(void);
const struct wl_interface *vitrine_wl_output_interface(void);
const struct wl_interface *vitrine_wl_seat_interface(void);
const struct wl_interface *vitrine_xdg_wm_base_interface(void);
const struct wl_interface *vitrine_wp_presentation_interface(void);
const struct wl_interface *vitrine_zwp_idle_inhibit_manager_v1_interface(void);

/// memfd_create (declared only under _GNU_SOURCE): an anonymous file for shared buffers.
int vitrine_memfd_create(const char *name, unsigned int flags);
/// MFD_CLOEXEC | MFD_ALLOW_SEALING.
unsigned int vitrine_memfd_cloexec_sealing(void);
/// fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK): the compositor's mapping can never lose its pages.
int vitrine_seal_against_shrinking(int fd);

/// Moves the pages mapped at `from` (`size` bytes) to `to`, replacing whatever is mapped there,
/// page-table entries included (mremap MREMAP_FIXED). With `keep_source` the range at `from`
/// stays mapped to the same file (MREMAP_DONTUNMAP: Linux 5.13 for shared mappings). Returns 0,
/// or -1 with errno set.
int vitrine_move_mapping(void *from, size_t size, void *to, int keep_source);

#endif
