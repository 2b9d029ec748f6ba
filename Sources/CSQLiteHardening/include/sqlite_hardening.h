#ifndef SQLITE_HARDENING_H
#define SQLITE_HARDENING_H

#include <sqlite3.h>

/// Sets SQLite's defensive options on a connection that reads an untrusted database
/// (https://www.sqlite.org/security.html): defensive mode, an untrusted schema, no triggers,
/// views or extension loading. sqlite3_db_config is variadic, which Swift cannot call.
/// Returns SQLITE_OK, or the first error.
int notes_sqlite_harden(sqlite3 *db);

/// Sets the connection's defensive mode on (1) or off (0); returns whether it was on before,
/// or -1 when SQLite refuses. Defensive mode forbids editing the schema's text, which a store
/// does once to its own database (some builds of SQLite turn it on for every connection).
int notes_sqlite_set_defensive(sqlite3 *db, int on);

#endif
