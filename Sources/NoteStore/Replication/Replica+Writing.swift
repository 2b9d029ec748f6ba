import Foundation
import GRDB

extension Replica {
    /// The columns of each entity that a change may set, with their kind of value.
    static let itemColumns: Set<String> = ["name", "parent", "created", "modified", "trashed", "body"]
    static let attachmentColumns: Set<String> = ["caption"]

    /// Inserts an object that does not exist yet, with every property of `values`.
    ///
    /// Refuses values that break the model's rules on single properties (the change is then
    /// left out, and the caller says so).
    public func insert(entity: Entity, object: UUID, values: OutboxChanges, stamps: [String: ChangeStamp]) throws {
        if let kind = entity.itemKind {
            try insertItem(kind: kind, object: object, values: values, stamps: stamps)
        } else if entity == .fileAttachment {
            try insertFileAttachment(object: object, values: values, stamps: stamps)
        } else {
            try insertAttachment(object: object, values: values, stamps: stamps)
        }
        written += 1
    }

    private func insertItem(kind: ItemKind, object: UUID, values: OutboxChanges, stamps: [String: ChangeStamp]) throws {
        if let parent = values["parent"], parent != .null, values.text("parent").flatMap(UUID.init(storeText:)) == nil {
            throw StoreError.invalidOperation(item: object.storeString, reason: "its parent is not an id")
        }
        let item = Item(id: object, kind: kind, values: values)
        if let failure = item.propertyFailures().first { throw StoreError.validation([failure]) }
        // A cached statement with placeholders: an import inserts many items through it.
        try db.cachedStatement(
            sql: """
                INSERT INTO item (id, kind, name, parent, created, modified, trashed, body, stamps)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                item.id.storeString, kind.rawValue, item.name, item.parent?.storeString,
                item.created.storeMilliseconds, item.modified.storeMilliseconds, item.trashed?.storeMilliseconds,
                item.body, Self.stampsJSON(stamps),
            ])
        searchIndex.inserted(rowid: connection.lastInsertedRowID, id: object.storeString)
        // A new collection may be the merged parent of displaced items: the repair runs.
        if item.parent != nil || kind == .collection { movedItems.insert(object) }
    }

    private func insertAttachment(object: UUID, values: OutboxChanges, stamps: [String: ChangeStamp]) throws {
        guard let note = values.text("note").flatMap(UUID.init(storeText:)),
            let sha256 = values.text("sha256"), BlobName.isValid(sha256),
            let format = values.text("format").flatMap(ImageFormat.init(rawValue:)),
            let width = values.integer("width"), width > 0, let height = values.integer("height"), height > 0,
            let bytes = values.integer("bytes"), bytes >= 0,
            (values.text("caption")?.count ?? 0) <= Attachment.maximumCaptionLength
        else {
            throw StoreError.invalidOperation(
                item: object.storeString, reason: "the attachment's values are incomplete")
        }
        try db.execute(
            literal: """
                INSERT INTO attachment (\(sql: Attachment.imageColumns), stamps)
                VALUES (\(object.storeString), 'image', \(note.storeString), \(sha256), \
                \(format.rawValue), \(width), \(height),
                    \(bytes), \(values.text("caption")), \(values.integer("created") ?? 0), \(Self.stampsJSON(stamps)))
                """)
        mayHaveOrphanAttachments = true
    }

    /// Inserts a `FileAttachment` (model 10): any file but the four checked image formats.
    private func insertFileAttachment(object: UUID, values: OutboxChanges, stamps: [String: ChangeStamp]) throws {
        func optionalPixels(_ name: String) -> Int64?? {
            switch values[name] {
            case nil, .null?: return .some(nil)
            case let .integer(value)? where value > 0: return .some(value)
            default: return nil
            }
        }
        guard let note = values.text("note").flatMap(UUID.init(storeText:)),
            let sha256 = values.text("sha256"), BlobName.isValid(sha256),
            let mediaType = values.text("mediaType"), MediaTypeSniffer.isValid(mediaType),
            values["fileName"] == nil || values["fileName"] == .null
                || values.text("fileName").map(Attachment.isValidFileName) == true,
            let width = optionalPixels("width"), let height = optionalPixels("height"),
            (width == nil) == (height == nil),
            let bytes = values.integer("bytes"), bytes >= 0, bytes <= Attachment.maximumFileBytes,
            (values.text("caption")?.count ?? 0) <= Attachment.maximumCaptionLength
        else {
            throw StoreError.invalidOperation(
                item: object.storeString, reason: "the attachment's values are incomplete")
        }
        try db.execute(
            literal: """
                INSERT INTO file_attachment (\(sql: Attachment.fileColumns), stamps)
                VALUES (\(object.storeString), \(note.storeString), \(sha256), \
                \(mediaType), \(values.text("fileName")), \(width),
                    \(height), \(bytes), \(values.text("caption")), \(values.integer("created") ?? 0), \
                \(Self.stampsJSON(stamps)))
                """)
        mayHaveOrphanAttachments = true
    }

    /// Sets the given properties of an existing object, with their new stamps.
    public func update(entity: Entity, object: UUID, values: OutboxChanges, stamps: [String: ChangeStamp]) throws {
        let isItem = entity.isItem
        let allowed = isItem ? Self.itemColumns : Self.attachmentColumns
        let properties = values.properties.filter { allowed.contains($0.name) && stamps[$0.name] != nil }
        guard !properties.isEmpty else { return }
        // Names of columns (of `allowed`) in the SQL, values as placeholders: executed with
        // its arguments, a statement binds a text where it lies, where a 10 MB body bound
        // beforehand was copied twice.
        var assignments: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        var checked: [String: DatabaseValue] = [:]
        for (name, value) in properties {
            let value = try checkedValue(name, value, entity: entity, object: object)
            checked[name] = value
            assignments.append("\(name) = ?")
            arguments.append(value)
        }
        assignments.append(StampsColumn.assignment(of: properties.map(\.name)))
        arguments += properties.map { stamps[$0.name]?.text }
        arguments.append(object.storeString)
        let table = isItem ? "item" : entity == .fileAttachment ? "file_attachment" : "attachment"
        let textChanged = isItem && properties.contains { $0.name == "name" || $0.name == "body" }
        // A note's new body and date are held back, and written into its row once
        // (``hold(_:stamps:of:)``). What they need reads no row held back: the connection itself.
        let holds =
            try entity == .note && properties.allSatisfy { Self.heldColumns.contains($0.name) }
            && Bool.fetchOne(
                connection.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item WHERE id = ?)"),
                arguments: [object.storeString]) == true
        let database = holds ? connection : try db
        if textChanged {
            try searchIndex.willChange(object.storeString, database)
            for property in HistoryProperty.allCases where properties.contains(where: { $0.name == property.rawValue })
            {
                try VersionStorage.keepCurrentText(
                    of: object, property, current: property == .body ? heldBody(of: object) : nil, database)
            }
        }
        if holds {
            try hold(checked, stamps: stamps.filter { checked[$0.key] != nil }, of: object)
        } else {
            // Cached: an import updates many objects, with few sets of properties among them.
            try database.cachedStatement(
                sql: "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE id = ?"
            ).execute(arguments: StatementArguments(arguments))
        }
        // Past its bound, the search index writes its entries from the rows: with every change in.
        if textChanged, searchIndex.isFull { try searchIndex.write(db) }
        if properties.contains(where: { $0.name == "parent" }) {
            try db.cachedStatement(literal: "DELETE FROM displaced WHERE item = \(object.storeString)").execute()
            movedItems.insert(object)
        }
        written += 1
    }

    /// A name or a body as it would be stored, after the model's checks on single properties;
    /// throws when the value breaks them.
    public func checkedText(_ name: String, _ value: OutboxValue, entity: Entity, object: UUID) throws -> String {
        guard let text = String.fromDatabaseValue(try checkedValue(name, value, entity: entity, object: object)) else {
            throw StoreError.invalidOperation(item: object.storeString, reason: "its \(name) is not text")
        }
        return text
    }

    /// The database value of a property, after the model's checks on single properties.
    private func checkedValue(_ name: String, _ value: OutboxValue, entity: Entity, object: UUID) throws
        -> DatabaseValue
    {
        func refuse(_ reason: String) -> StoreError {
            StoreError.invalidOperation(item: object.storeString, reason: reason)
        }
        switch name {
        case "name":
            guard case let .text(text) = value else { throw refuse("its name is not text") }
            let probe = Item(
                id: object, kind: .collection, name: Item.normalizedName(text), created: Date(), modified: Date(),
                parent: nil, trashed: nil, body: nil)
            if let failure = probe.propertyFailures().first { throw StoreError.validation([failure]) }
            return probe.name.databaseValue
        case "body":
            guard entity == .note, case let .text(text) = value else { throw refuse("only a note has a body") }
            guard text.utf8.count <= Item.maximumBodyBytes else { throw refuse("its body is larger than 10 MB") }
            return text.databaseValue
        case "parent":
            switch value {
            case .null: return .null
            case let .text(text):
                guard let id = UUID(storeText: text) else { throw refuse("its parent is not an id") }
                return id.storeString.databaseValue
            case .integer: throw refuse("its parent is not an id")
            }
        case "caption":
            switch value {
            case .null: return .null
            case let .text(text):
                guard text.count <= Attachment.maximumCaptionLength else { throw refuse("its caption is too long") }
                return text.databaseValue
            case .integer: throw refuse("its caption is not text")
            }
        case "trashed":
            if case .text = value { throw refuse("its trashed date is not a number") }
            return value.databaseValue
        default:
            // created and modified: required whole numbers.
            guard case .integer = value else { throw refuse("its \(name) is not a number") }
            return value.databaseValue
        }
    }

    /// Purges an object (a note with its attachments) and keeps its tombstone, with what the
    /// purge had seen (nil: everything) and, for a note or collection, its merged state.
    public func remove(entity: Entity, object: UUID, stamp: ChangeStamp, seen: [UUID: UInt64]? = nil) throws {
        let id = object.storeString
        var state: String?
        if entity.isAttachment {
            let table = entity == .fileAttachment ? "file_attachment" : "attachment"
            state = try attachmentNote(of: object).map(TombstoneRecord.attachmentState(note:))
            try releaseBlobs(ofAttachmentsWhere: "id = \(id)", in: table)
            try db.execute(literal: "DELETE FROM \(sql: table) WHERE id = \(id)")
        } else {
            state = try TombstoneRecord.capturedState(of: id, db)
            for (table, entity) in [("attachment", Entity.imageAttachment), ("file_attachment", .fileAttachment)] {
                try releaseBlobs(ofAttachmentsWhere: "note = \(id)", in: table)
                try db.execute(
                    literal: """
                        INSERT OR REPLACE INTO tombstone(object, entity, stamp)
                        SELECT id, \(entity.rawValue), \(stamp.text) FROM \(sql: table) WHERE note = \(id)
                        """)
                try db.execute(literal: "DELETE FROM \(sql: table) WHERE note = \(id)")
            }
            try searchIndex.willChange(id, db)
            try VersionStorage.keepCurrentText(of: object, nil, db)
            try db.execute(literal: "DELETE FROM item WHERE id = \(id)")
            try searchIndex.didChange(db)
        }
        try recordPurge(of: object, entity: entity, stamp: stamp, seen: seen)
        if let state {
            try db.execute(literal: "UPDATE tombstone SET state = \(state) WHERE object = \(id)")
        }
        mayHaveOrphanAttachments = true
        mayHaveOrphanItems = mayHaveOrphanItems || entity.isItem
        written += 1
    }

    /// Removes a blob once the transaction commits, unless an attachment uses it then.
    ///
    /// For blobs copied in for changes that turned out not to need them: an attachment that
    /// was purged here already, whose insert the merge ignores.
    public func releaseBlobUnlessUsed(_ sha256: String) throws {
        try db.execute(literal: "INSERT OR IGNORE INTO blob_release(sha256) VALUES (\(sha256))")
        releasedBlobs = true
    }

    private func releaseBlobs(ofAttachmentsWhere condition: SQL, in table: String) throws {
        try db.execute(
            literal: "INSERT OR IGNORE INTO blob_release(sha256) SELECT sha256 FROM \(sql: table) WHERE \(condition)")
        releasedBlobs = releasedBlobs || connection.changesCount > 0
    }
}

extension Item {
    /// An item of the values of a change, as an insert gives them: a missing or ill-typed
    /// value taken as empty, 0 or null.
    init(id: UUID, kind: ItemKind, values: OutboxChanges) {
        self.init(
            id: id, kind: kind, name: Item.normalizedName(values.text("name") ?? ""),
            created: Date(storeMilliseconds: values.integer("created") ?? 0),
            modified: Date(storeMilliseconds: values.integer("modified") ?? 0),
            parent: values.text("parent").flatMap(UUID.init(storeText:)),
            trashed: values.integer("trashed").map(Date.init(storeMilliseconds:)),
            body: kind == .note ? (values.text("body") ?? "") : nil)
    }
}

extension OutboxChanges {
    func text(_ name: String) -> String? {
        if case let .text(text)? = self[name] { return text }
        return nil
    }

    func integer(_ name: String) -> Int64? {
        if case let .integer(value)? = self[name] { return value }
        return nil
    }
}
