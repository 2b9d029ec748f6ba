import Foundation
import FuzzDriver
import NoteInterchange

// The readers of an import, given each input as a file: a Markdown note (front matter, tags,
// links to images, the block of links an export writes after a body) and a JSON Lines export
// (its first line, then items).
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-fuzz-interchange-\(getpid())")
try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let note = folder.appendingPathComponent("note.md")
let export = folder.appendingPathComponent("notes.jsonl")
atexit { try? FileManager.default.removeItem(at: folder) }

/// Reads every note of `entries`, as an import takes them.
func take(_ entries: [ImportEntry]) {
    for entry in entries {
        if let (read, _) = entry.reading?(), let read { take(read.children) }
        take(entry.children)
    }
}

fuzz { data in
    try? data.write(to: note)
    if let (entries, _) = try? MarkdownReader().read(note) { take(entries) }
    try? data.write(to: export)
    _ = try? JSONReader().read(export)
    _ = try? JSONReader().count(export)
}
