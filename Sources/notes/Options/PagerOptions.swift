import ArgumentParser
import NoteTerminal

/// `--no-pager`, for the commands whose output can be longer than the screen.
struct PagerOptions: ParsableArguments {
    @Flag(help: "Print to the terminal without the pager ($NOTES_PAGER, $PAGER or less).")
    var noPager = false

    /// Starts the pager when standard output is a terminal and paging is on; the caller
    /// calls `finish()` on it once everything is printed.
    func start() -> Pager? {
        noPager ? nil : Pager.start()
    }
}
