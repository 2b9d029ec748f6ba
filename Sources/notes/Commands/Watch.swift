import ArgumentParser
import Dispatch
import Foundation
import Logging
import NoteStore
import NoteSync
import NoteWatch
import NoteTerminal

extension Notes {
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Keep this store in sync while it runs: import logs as they arrive, export saves as they happen.",
            discussion: """
                Runs in the foreground until SIGINT or SIGTERM, which end it with status 0 after the sync \
                in progress. One watcher runs per store. When the container's sentinel or this device's \
                registration disappears, it says so at once and keeps running; sync resumes after \
                'notes sync enable'.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Flag(
            name: [.customShort("v"), .long],
            help: """
                Say more on standard error: once for imports and exports, twice for events, \
                three times for every file (see NOTES_LOG_LEVEL in the man page).
                """
        )
        var verbose: Int

        @OptionGroup var passphraseOptions: PassphraseOptions

        func run() throws {
            let store = try openWaitingForSpace()
            // The watcher asks nobody: an encrypted container's key is unwrapped before it starts.
            let engine = SyncEngine(store: store, hooks: .environment)
            engine.passphrase = passphraseOptions.source()
            try engine.unlock()
            let level = StandardErrorLog.level(verbose: verbose)
            let logger = Logger(label: "notes.watch") { _ in StandardErrorLog(prefix: "notes watch", level: level) }
            let service = try WatchService(engine: SyncEngine(store: store, hooks: .environment), logger: logger)
            signal(SIGPIPE, SIG_IGN)
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
                source.setEventHandler {
                    service.stop()
                    Foundation.exit(0)
                }
                source.resume()
                WatchSignals.sources.append(source)
            }
            try service.start()
            IndexBuilder.start(store, logger: logger)
            dispatchMain()
        }

        /// Opens the store; on a disk with no space left, says so once and tries again every
        /// few seconds rather than ending, so that sync resumes once there is room.
        private func openWaitingForSpace() throws -> Store {
            var said = false
            while true {
                do {
                    return try storeOptions.open()
                } catch let error as StoreError where error.description.hasSuffix("no space left on device") {
                    if !said {
                        FileHandle.standardError.write(Data("notes watch: \(error); waiting for space\n".utf8))
                        said = true
                    }
                    Thread.sleep(forTimeInterval: 5)
                }
            }
        }
    }
}

/// Builds the derived indexes of a store made from a baseline of many items, on a thread of
/// its own while `notes watch` runs: the listing index in one statement, then the link index
/// and the trigram index a part at a time, each part one short transaction, so that saves and
/// syncs go on meanwhile (``Store/buildListingIndex()``, ``Store/buildLinkIndex(notes:)``,
/// ``Store/buildTrigramIndex(items:)``).
enum IndexBuilder {
    static func start(_ store: Store, logger: Logger) {
        let listing = (try? store.isListingIndexPending()) ?? false
        let links = try? store.linkIndexBuild()
        let trigrams = try? store.trigramIndexBuild()
        guard listing || links != nil || trigrams != nil else { return }
        if listing { logger.info("building the listing index") }
        if let links { logger.info("building the link index: \(links.built) of \(links.items) notes") }
        if let trigrams {
            logger.info("building the index of parts of words: \(trigrams.built) of \(trigrams.items) items")
        }
        var builds: [(name: String, part: @Sendable () throws -> Bool)] = []
        if listing {
            builds.append(
                (
                    "the listing index",
                    {
                        try store.buildListingIndex(); return true
                    }
                ))
        }
        if links != nil { builds.append(("the link index", { try store.buildLinkIndex() })) }
        if trigrams != nil { builds.append(("the index of parts of words", { try store.buildTrigramIndex() })) }
        let thread = Thread { [builds] in
            for build in builds {
                do {
                    while try !build.part() {}
                    logger.info("built \(build.name)")
                } catch {
                    logger.error("cannot build \(build.name): \(error)")
                }
            }
        }
        thread.qualityOfService = .utility
        thread.start()
    }
}

/// Keeps the signal sources of `notes watch` alive.
enum WatchSignals {
    // Unsafe: appended to on the main thread before `dispatchMain()`, never read.
    nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
}
