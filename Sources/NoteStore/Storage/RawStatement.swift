import GRDB
import GRDBSQLite

/// Prepared statements run through SQLite's own calls, for loops over many rows: GRDB checks
/// and converts the arguments of every run and makes a row of every result, which costs more
/// than a small insert, or than a look at a column's bytes that most rows fail.
enum RawStatement {
    /// Steps a statement once: whether it gave a row.
    static func step(_ statement: SQLiteStatement) throws -> Bool {
        let code = sqlite3_step(statement)
        guard code == SQLITE_ROW || code == SQLITE_DONE else { throw error(code, statement) }
        return code == SQLITE_ROW
    }

    /// Binds `texts` to the statement's parameters, in order, runs it to its end and resets it.
    /// One parameter for each text. The statement is reset first too: GRDB leaves a statement
    /// it ran as it ended, and SQLite refuses to bind one in that state.
    static func run(_ statement: SQLiteStatement, binding texts: String...) throws {
        sqlite3_reset(statement)
        for (index, text) in texts.enumerated() {
            var text = text
            let code = text.withUTF8 { bytes in
                sqlite3_bind_text(statement, Int32(index + 1), bytes.baseAddress, Int32(bytes.count), transient)
            }
            guard code == SQLITE_OK else { throw error(code, statement) }
        }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw error(code, statement) }
    }

    /// The bytes of a column of the row a statement is on, as text in UTF-8 (empty for NULL),
    /// valid until the statement steps again or is reset.
    static func textBytes(_ statement: SQLiteStatement, _ column: Int32) -> UnsafeBufferPointer<UInt8> {
        let start = sqlite3_column_text(statement, column)
        return UnsafeBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_column_bytes(statement, column)))
    }

    /// A column of the row a statement is on, as text (invalid UTF-8 repaired, as GRDB reads
    /// text); empty for NULL.
    static func text(_ statement: SQLiteStatement, _ column: Int32) -> String {
        String(decoding: textBytes(statement, column), as: UTF8.self)
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies the bytes bound, which live no longer than the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func error(_ code: Int32, _ statement: SQLiteStatement) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))))
    }
}
