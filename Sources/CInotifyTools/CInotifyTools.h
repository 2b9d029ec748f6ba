// libinotifytools (libinotifytools0-dev) and what Swift cannot reach of inotify(7) by itself.
#ifndef C_INOTIFY_TOOLS_H
#define C_INOTIFY_TOOLS_H

#include <stdint.h>
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>

/// The name of the entry an event is about, relative to the watched folder; "" for an event
/// about the watched folder itself. `name` is a flexible array member, which Swift does not import.
static inline const char *cinotify_event_name(const struct inotify_event *event) {
    return event->len > 0 ? event->name : "";
}

// The event bits of inotify(7) as unsigned constants: Swift imports the macros as signed
// integers, and not at all those built from other macros.
static const uint32_t CINOTIFY_MODIFY = IN_MODIFY;
static const uint32_t CINOTIFY_CLOSE_WRITE = IN_CLOSE_WRITE;
static const uint32_t CINOTIFY_MOVED_FROM = IN_MOVED_FROM;
static const uint32_t CINOTIFY_MOVED_TO = IN_MOVED_TO;
static const uint32_t CINOTIFY_CREATE = IN_CREATE;
static const uint32_t CINOTIFY_DELETE = IN_DELETE;
static const uint32_t CINOTIFY_DELETE_SELF = IN_DELETE_SELF;
static const uint32_t CINOTIFY_MOVE_SELF = IN_MOVE_SELF;
static const uint32_t CINOTIFY_UNMOUNT = IN_UNMOUNT;
static const uint32_t CINOTIFY_Q_OVERFLOW = IN_Q_OVERFLOW;
static const uint32_t CINOTIFY_IGNORED = IN_IGNORED;
static const uint32_t CINOTIFY_ONLYDIR = IN_ONLYDIR;
static const uint32_t CINOTIFY_DONT_FOLLOW = IN_DONT_FOLLOW;
static const uint32_t CINOTIFY_EXCL_UNLINK = IN_EXCL_UNLINK;
static const uint32_t CINOTIFY_ISDIR = IN_ISDIR;

#endif
