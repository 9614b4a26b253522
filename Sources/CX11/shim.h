#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/dpms.h>
#include <sys/ipc.h>
#include <sys/shm.h>

// Function-like macros and constants whose type Swift cannot import cleanly, as functions.

/// XDestroyImage (a macro calling the image's destroy hook): frees the image and its data.
static inline int vitrine_XDestroyImage(XImage *image) { return XDestroyImage(image); }

/// The offset of the MIT-SHM completion event from the extension's event base.
static inline int vitrine_ShmCompletion(void) { return ShmCompletion; }

/// shmat's failure value, (void *)-1.
static inline int vitrine_shmat_failed(const void *address) { return address == (void *)-1; }
