import Foundation
import GRDB
import GRDBSQLite

/// A bare SQLite connection through the C API, for the reference figures: what SQLite alone
/// does with the same rows, with no layer above it.
///
/// It opens the store's own file, whose schema (tables, indexes, the FTS5 table) the store made,
/// with the settings the store asks for: WAL, foreign keys on and, unless told otherwise,
/// `synchronous = FULL`, which makes every commit durable (https://sqlite.org/pragma.html).
final class RawConnection {
    /// How SQLite syncs commits in WAL mode: FULL syncs the WAL at every commit; NORMAL
    /// syncs only at checkpoints, so the last commits can be lost to a power failure.
    enum Synchronous: String {
        case full = "FULL"
        case normal = "NORMAL"
    }

    private var handle: OpaquePointer?

    init(path: String, synchronous: Synchronous = .full) throws {
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw BenchError.sqlite("open", code: code, message: message)
        }
        sqlite3_busy_timeout(handle, 10_000)
        try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous.rawValue); PRAGMA foreign_keys = ON")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The SQLite library's version, such as 3.40.1.
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Runs one or more statements that return no rows that matter.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure("exec", code) }
    }

    /// The rowid of the row the last insert wrote.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure("prepare", code) }
        return RawStatement(statement, connection: self)
    }

    fileprivate func failure(_ call: String, _ code: Int32) -> BenchError {
        .sqlite(call, code: code, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement of a ``RawConnection``, bound and stepped by hand.
final class RawStatement {
    private let statement: OpaquePointer
    private let connection: RawConnection
    /// Tells SQLite to copy bound text, as GRDB and most callers do.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    fileprivate init(_ statement: OpaquePointer, connection: RawConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Binds the values to the parameters, in order: text, integer, bytes or null.
    func bind(_ values: [RawValue]) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case let .text(text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case let .integer(number): sqlite3_bind_int64(statement, index, number)
            case let .bytes(data):
                _ = data.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient)
                }
            case .null: sqlite3_bind_null(statement, index)
            }
        }
    }

    /// Runs the bound statement to completion and resets it for the next row.
    func execute() throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw connection.failure("step", code) }
    }
}

/// A column value for a ``RawStatement``.
enum RawValue: Sendable, Hashable {
    case text(String)
    case integer(Int64)
    case bytes(Data)
    case null

    /// The rows of a query read through GRDB, as raw values: the rows a store wrote, for the
    /// raw runs to write again.
    static func rows(_ db: Database, _ sql: SQL) throws -> [[RawValue]] {
        try Row.fetchAll(db, SQLRequest(literal: sql)).map { row in
            row.databaseValues.map { value in
                switch value.storage {
                case let .string(text): return .text(text)
                case let .int64(number): return .integer(number)
                case let .blob(data): return .bytes(data)
                default: return .null
                }
            }
        }
    }
}
