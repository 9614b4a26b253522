// libjpeg-turbo's TurboJPEG API: errors come back as return values (tjGetErrorStr2), never as
// the longjmp of the classic libjpeg API, which must not cross Swift frames.
#include <stddef.h>
#include <turbojpeg.h>
