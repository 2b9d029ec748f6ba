#ifndef SQLITE_HARDENING_H
#define SQLITE_HARDENING_H

#include <sqlite3.h>

/// Sets SQLite's defensive options on a connection that reads an untrusted database
/// (https://www.sqlite.org/security.html): defensive mode, an untrusted schema, no triggers,
/// views or extension loading. sqlite3_db_config is variadic, which Swift cannot call.
/// Returns SQLITE_OK, or the first error.
int notes_sqlite_harden(sqlite3 *db);

/// Whether the connection is in defensive mode, where the schema's text may not be edited.
int notes_sqlite_is_defensive(sqlite3 *db);

#endif
