#include "terminal_signals.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught_signal = 0;
static struct sigaction saved_int, saved_quit, saved_term, saved_hup;

static void remember(int signal_number) {
    caught_signal = signal_number;
}

int notes_begin_foreground_child(void) {
    caught_signal = 0;
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    struct sigaction catch;
    memset(&catch, 0, sizeof catch);
    catch.sa_handler = remember;
    sigemptyset(&catch.sa_mask);
    catch.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &ignore, &saved_int) != 0) return -1;
    if (sigaction(SIGQUIT, &ignore, &saved_quit) != 0) goto undo_int;
    if (sigaction(SIGTERM, &catch, &saved_term) != 0) goto undo_quit;
    if (sigaction(SIGHUP, &catch, &saved_hup) != 0) goto undo_term;
    return 0;
undo_term:
    sigaction(SIGTERM, &saved_term, NULL);
undo_quit:
    sigaction(SIGQUIT, &saved_quit, NULL);
undo_int:
    sigaction(SIGINT, &saved_int, NULL);
    return -1;
}

int notes_end_foreground_child(void) {
    sigaction(SIGHUP, &saved_hup, NULL);
    sigaction(SIGTERM, &saved_term, NULL);
    sigaction(SIGQUIT, &saved_quit, NULL);
    sigaction(SIGINT, &saved_int, NULL);
    int result = caught_signal;
    caught_signal = 0;
    return result;
}
