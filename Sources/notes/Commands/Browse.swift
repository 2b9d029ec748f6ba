import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct Browse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "browse",
            abstract: "Browse collections and notes full-screen, kept up to date as the store changes.",
            discussion: """
                The collections on the left, the notes of the selected one in sections (by collection, \
                or by day), a preview of the selected note. Changes saved by another process or \
                imported from another device appear in place. Keys: j/k or arrows move, h/l or Tab \
                switch pane, Enter edits in $EDITOR, / searches names, n new note, t tag, m move, \
                d trash, u restore, s sort, ? help, q quit.
                """)

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open()
            let browser = Browser(
                store: store,
                actions: Browser.Actions(edit: { note in
                    let editor = try ExternalEditor.find()
                    try EditorSession(store: store, editor: editor, note: try store.item(note.id)).run()
                }))
            try browser.run()
        }
    }
}
