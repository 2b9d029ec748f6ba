#ifndef TERMINAL_GUARD_H
#define TERMINAL_GUARD_H

/// Saves the modes of the terminal on standard input and installs handlers that put them back
/// (and leave the alternate screen, and show the cursor) before this process ends by SIGTERM,
/// SIGHUP, SIGQUIT or a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT): a full-screen
/// program never leaves the terminal without echo. The signal then acts as it would have.
/// Returns 0, or -1 when standard input is not a terminal.
int notes_guard_terminal(void);

/// Puts back the modes saved by notes_guard_terminal and the handlers it replaced.
void notes_release_terminal(void);

#endif
