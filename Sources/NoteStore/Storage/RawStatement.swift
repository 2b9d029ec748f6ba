import GRDB
import GRDBSQLite

/// Prepared statements run through SQLite's own calls, for loops over many rows: GRDB checks
/// and converts the arguments of every run, which costs more than a small insert.
enum RawStatement {
    /// Steps a statement once: whether it gave a row.
    static func step(_ statement: SQLiteStatement) throws -> Bool {
        let code = sqlite3_step(statement)
        guard code == SQLITE_ROW || code == SQLITE_DONE else { throw error(code, statement) }
        return code == SQLITE_ROW
    }

    /// Binds `values` to the statement's parameters, in order, runs it to its end and resets
    /// it. One parameter for each value. The statement is reset first too: GRDB leaves a
    /// statement it ran as it ended, and SQLite refuses to bind one in that state.
    static func run(_ statement: SQLiteStatement, binding values: DatabaseValue...) throws {
        precondition(values.count == sqlite3_bind_parameter_count(statement), "a value for each parameter")
        sqlite3_reset(statement)
        for (index, value) in values.enumerated() {
            let code = bind(value, at: Int32(index + 1), statement)
            guard code == SQLITE_OK else { throw error(code, statement) }
        }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw error(code, statement) }
    }

    private static func bind(_ value: DatabaseValue, at parameter: Int32, _ statement: SQLiteStatement) -> Int32 {
        switch value.storage {
        case .null:
            return sqlite3_bind_null(statement, parameter)
        case .int64(let number):
            return sqlite3_bind_int64(statement, parameter, number)
        case .double(let number):
            return sqlite3_bind_double(statement, parameter, number)
        case .string(var text):
            return text.withUTF8 { bytes in
                guard let start = bytes.baseAddress else {
                    // No storage: bound as an empty text, where no pointer binds NULL.
                    return sqlite3_bind_text(statement, parameter, "", 0, transient)
                }
                return sqlite3_bind_text(statement, parameter, start, Int32(bytes.count), transient)
            }
        case .blob(let data):
            return data.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_zeroblob(statement, parameter, 0)
                }
                return sqlite3_bind_blob(statement, parameter, start, Int32(bytes.count), transient)
            }
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies the bytes bound, which live no longer than the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The error of a statement, with its SQL, as GRDB reports one.
    private static func error(_ code: Int32, _ statement: SQLiteStatement) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))),
            sql: sqlite3_sql(statement).map { String(cString: $0) })
    }
}
