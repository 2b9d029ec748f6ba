import Foundation
import NoteStore
import NoteTestSupport

/// A store in its own temporary folder.
final class StoreFixture {
    let folder = TemporaryFolder("notes-store")
    let store: Store

    /// With `recordingChanges`, saves record their changes in the outbox from the start, as
    /// in a store that sync has enabled.
    init(recordingChanges: Bool = false) throws {
        store = try Store(folder: folder.appending("store"))
        if recordingChanges { try store.startRecordingChanges() }
    }

    /// Saves a small tree: Work/Ideas/Launch plan, Work/Meeting, Home/Recipes/Soup.
    func makeTree() throws -> Tree {
        let context = store.makeContext()
        let work = context.insertCollection(named: "Work")
        let ideas = context.insertCollection(named: "Ideas", in: work.id)
        let launch = context.insertNote(named: "Launch plan", body: "ship it in spring", in: ideas.id)
        let meeting = context.insertNote(named: "Meeting", body: "agenda: budget", in: work.id)
        let home = context.insertCollection(named: "Home")
        let recipes = context.insertCollection(named: "Recipes", in: home.id)
        let soup = context.insertNote(named: "Soup", body: "leeks and potatoes", in: recipes.id)
        try context.save()
        return Tree(
            work: work.id, ideas: ideas.id, launch: launch.id, meeting: meeting.id,
            home: home.id, recipes: recipes.id, soup: soup.id)
    }

    struct Tree {
        let work, ideas, launch, meeting, home, recipes, soup: UUID
    }

    func item(_ id: UUID) throws -> Item { try store.item(id) }

    func rules(of error: any Error) -> [ValidationFailure.Rule] {
        guard case let StoreError.validation(failures) = error else { return [] }
        return failures.map(\.rule)
    }
}
