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

fuzz { data in
    try? data.write(to: note)
    _ = try? MarkdownReader().stream(note) { _, _, _ in }
    try? data.write(to: export)
    _ = try? JSONReader().read(export)
    _ = try? JSONReader().count(export)
}
