#ifndef TERMINAL_SIGNALS_H
#define TERMINAL_SIGNALS_H

#include <sys/types.h>

/// Prepares this process to wait for an interactive child that shares its process group (and
/// so the terminal's foreground group), as system(3) and git's editor launch do: SIGINT and
/// SIGQUIT, which the terminal sends to the whole group, are ignored here and left to the
/// child; SIGTERM and SIGHUP are caught and remembered, so that this process outlives the
/// child and cleans up after it (a hang-up of the terminal reaches the child by itself). The previous dispositions are kept for notes_end_foreground_child. Returns 0, or -1
/// with errno set (nothing is changed then).
int notes_begin_foreground_child(void);

/// Restores the dispositions that notes_begin_foreground_child replaced. Returns the signal
/// that was caught meanwhile (the last one), or 0: the caller cleans up, then raises it.
int notes_end_foreground_child(void);

#endif
