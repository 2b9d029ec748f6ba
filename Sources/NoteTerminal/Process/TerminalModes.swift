import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The modes of the terminal on standard input, saved to be put back after a child that may
/// leave them changed (an editor killed while in raw mode leaves no echo and no line editing).
struct TerminalModes {
    private let modes: termios

    /// The current modes, or nil when standard input is not a terminal.
    static func saved() -> TerminalModes? {
        var modes = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &modes) == 0 else { return nil }
        return TerminalModes(modes: modes)
    }

    /// Puts the modes back, only while this process's group has the terminal: a process in
    /// the background that changes the terminal's modes is stopped (SIGTTOU).
    func restore() {
        guard tcgetpgrp(STDIN_FILENO) == getpgrp() else { return }
        var modes = self.modes
        tcsetattr(STDIN_FILENO, TCSADRAIN, &modes)
    }
}
