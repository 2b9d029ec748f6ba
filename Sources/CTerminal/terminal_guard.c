#include "terminal_guard.h"

#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_modes;
static volatile sig_atomic_t guarding = 0;
static const int guarded[] = {SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT};
#define GUARDED_COUNT (sizeof guarded / sizeof guarded[0])
static struct sigaction saved_actions[GUARDED_COUNT];

static void restore_modes(void) {
    static const char reset[] = "\033[?1049l\033[?25h\033[0m\r\n";
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_modes);
    (void)!write(STDOUT_FILENO, reset, sizeof reset - 1);
}

static void restore_and_raise(int signal_number) {
    if (guarding) {
        guarding = 0;
        restore_modes();
    }
    // Ends by the signal with its default action, as if the handler had not been there.
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

int notes_guard_terminal(void) {
    if (tcgetattr(STDIN_FILENO, &saved_modes) != 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = restore_and_raise;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    for (unsigned i = 0; i < GUARDED_COUNT; i++) sigaction(guarded[i], &action, &saved_actions[i]);
    guarding = 1;
    return 0;
}

void notes_release_terminal(void) {
    if (!guarding) return;
    guarding = 0;
    for (unsigned i = 0; i < GUARDED_COUNT; i++) sigaction(guarded[i], &saved_actions[i], NULL);
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_modes);
}
