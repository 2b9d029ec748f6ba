import ArgumentParser
import Foundation
import NoteStore

extension Notes {
    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "open",
            abstract: "Open an attachment in the desktop's application for its kind (xdg-open).",
            discussion: """
                The bytes are copied, checked against their hash, to a private folder of the \
                store (open/), under the attachment's file name, and that copy is opened: an \
                application that changes it changes nothing in the store. Copies made more than a \
                day before are removed then. Needs a display ($DISPLAY or $WAYLAND_DISPLAY).
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The attachment's id or a unique id prefix.")
        var attachment: String

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            guard !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else {
                throw InputError.cannotOpen(
                    "cannot open attachment '\(attachment)': no display ($DISPLAY and $WAYLAND_DISPLAY are not set); "
                        + "'notes attachment-save' writes it to a file")
            }
            let store = try storeOptions.open(.readOnly)
            let found = try store.resolveAttachment(attachment)
            AttachmentCopy.removeOld(in: store, keeping: found)
            let copy = try AttachmentCopy.make(of: found, in: store)
            guard let opener = AttachmentCopy.executable("xdg-open") else {
                throw InputError.cannotOpen(
                    "cannot open attachment '\(attachment)': xdg-open is not installed (xdg-utils)")
            }
            let process = Process()
            process.executableURL = opener
            process.arguments = [copy.path]
            do {
                try process.run()
            } catch {
                throw InputError.cannotOpen("cannot open attachment '\(attachment)': xdg-open could not be run")
            }
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw InputError.cannotOpen(
                    "cannot open attachment '\(attachment)': xdg-open exited with status \(process.terminationStatus)")
            }
        }
    }
}

/// The copies of attachments that `notes open` hands to other applications.
enum AttachmentCopy {
    /// Copies the attachment's bytes to `open/<id>/<file name>` in the store folder (folders
    /// 0700), replacing an earlier copy; returns its path.
    static func make(of attachment: Attachment, in store: Store) throws -> URL {
        let folder = store.folder.appendingPathComponent("open").appendingPathComponent(attachment.id.storeString)
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw InputError.output(path: folder.path, reason: OutputFile.reason(for: folder))
        }
        let copy = folder.appendingPathComponent(attachment.suggestedFileName)
        try? FileManager.default.removeItem(at: copy)
        do {
            try store.copyBytes(of: attachment, to: copy)
        } catch StoreError.cannotOpen {
            throw InputError.output(path: copy.path, reason: OutputFile.reason(for: copy))
        }
        return copy
    }

    /// How long a copy is kept: xdg-open returns once the application has started, not when
    /// it is done with the file, so copies are removed by a later `notes open`.
    static let kept: TimeInterval = 24 * 60 * 60

    /// Removes the copies (`open/<id>` folders) last written more than ``kept`` ago, but that of
    /// `attachment`, which is written again; a copy that cannot be removed is left.
    static func removeOld(in store: Store, keeping attachment: Attachment, now: Date = Date()) {
        let folder = store.folder.appendingPathComponent("open")
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name != attachment.id.storeString {
            let copy = folder.appendingPathComponent(name)
            guard let written = (try? manager.attributesOfItem(atPath: copy.path))?[.modificationDate] as? Date,
                now.timeIntervalSince(written) > kept
            else { continue }
            try? manager.removeItem(at: copy)
        }
    }

    /// The first executable of that name in `$PATH`.
    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
