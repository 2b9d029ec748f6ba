import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal
import NoteText

extension Notes {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Rename an item or change a note's body.",
            discussion: """
                With neither --name nor a body option, opens $VISUAL or $EDITOR on the note's body \
                in the terminal and saves only if it changed. A change saved meanwhile merges with \
                the edit; when both changed the same lines, the editor opens again with both \
                versions between conflict markers.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: "The item to edit (on a terminal, left out: chosen in a picker).", completion: ItemCompletion.items)
        var item: String?

        @OptionGroup var pickOptions: PickOptions

        @Option(help: ArgumentHelp("The new name.", valueName: "NAME"))
        var name: String?

        @OptionGroup var bodyOptions: BodyOptions

        func run() throws {
            let store = try storeOptions.open()
            let target = try pickOptions.item(item, in: store, prompt: "edit> ")
            if let body = try bodyOptions.givenBody() {
                try store.edit(target.id, name: name, body: body)
                return
            }
            if let name {
                try store.edit(target.id, name: name)
                return
            }
            guard target.isNote else {
                throw InputError.usage("'\(item ?? target.name)' is a collection: give --name to rename it")
            }
            let editor = try ExternalEditor.find()
            try EditorSession(store: store, editor: editor, note: target).run()
        }
    }
}

/// A note's body edited in the person's editor, saved when the editor ends.
///
/// A change saved meanwhile (imported from another device, or from another process) merges
/// with the edit. When both changed the same lines, the editor opens again on the merge with
/// both versions of those lines between conflict markers, and what it ends with is saved:
/// what was typed never leaves the store.
struct EditorSession {
    let store: Store
    let editor: ExternalEditor
    let note: Item

    func run() throws {
        let workspace = store.editorWorkspace
        var read = note
        var text = note.body ?? ""
        var resolving = false
        while true {
            var edited: String
            var deferredSignal: Int32 = 0
            do {
                let result = try editor.edit(text, title: read.name, workspace: workspace) {
                    try TextInput.read(path: $0.path)
                }
                edited = result.text
                deferredSignal = result.deferredSignal
            } catch let error as TerminalError where resolving {
                // The merge with markers holds everything typed: it is saved rather than lost.
                TerminalText.warn("\(error); the note is saved with both versions between conflict markers")
                edited = text
            }
            // Ended by a hang-up or SIGTERM: what the editor wrote is saved, then the signal acts.
            defer { ForegroundProcess.deliver(deferredSignal) }
            if !resolving && edited == read.body { return }
            do {
                if try store.edit(read.id, expecting: read, mergingBody: edited) {
                    print("merged with a change made while the editor was open (see 'notes history')")
                }
                if resolving && edited.contains("<<<<<<< ") && edited.contains(">>>>>>> ") {
                    TerminalText.warn(
                        "'\(read.name)' is saved with conflict markers in it: 'notes edit' it again to resolve them")
                }
                return
            } catch StoreError.changedElsewhere(_, let properties) where properties == ["body"] {
                let current = try store.item(read.id)
                text =
                    ThreeWayMerge.markingConflicts(
                        base: read.body ?? "", older: current.body ?? "", newer: edited,
                        olderLabel: "saved elsewhere while you edited", newerLabel: "your edit"
                    ).text
                TerminalText.warn(
                    "'\(read.name)' changed while the editor was open (on another device or in another process) "
                        + "on the same lines: the editor opens again with both versions between conflict markers")
                read = current
                resolving = true
                // With no terminal left to reopen the editor on, the merge with markers is saved.
                if deferredSignal != 0 {
                    _ = try store.edit(read.id, expecting: read, mergingBody: text)
                    return
                }
            }
        }
    }
}
