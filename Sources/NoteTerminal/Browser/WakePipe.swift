import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pipe that another thread writes a byte to, so that a loop waiting for the keyboard wakes
/// at once when the store changed (the self-pipe trick, poll(2)).
final class WakePipe: Sendable {
    private let read: Int32
    private let write: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        read = ends[0]
        write = ends[1]
    }

    deinit {
        close(read)
        close(write)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = Glibc.write(write, &byte, 1)
    }

    enum Event { case input, changed }

    /// Waits until a key is typed (or a signal such as SIGWINCH came: ncurses then has a key
    /// for it), or the pipe was written to, which it empties.
    func waitForInputOrSignal() -> Event {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: read, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, 2, -1)
        if ready > 0 && descriptors[1].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            while Glibc.read(read, &buffer, buffer.count) > 0 {}
            return .changed
        }
        return .input
    }
}
