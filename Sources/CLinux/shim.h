// Linux interfaces that Glibc's Swift module does not import: timerfd (absolute-deadline timers
// a poll() can wait on), eventfd (cross-thread wake-ups), signalfd (signals as reads), inotify
// (watching a progress file), and the sockaddr_un of the sd_notify socket.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
