// Linux event primitives that Glibc's Swift module does not import: timerfd (absolute-deadline
// timers a poll() can wait on), eventfd (cross-thread wake-ups) and signalfd (signals as reads).
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
