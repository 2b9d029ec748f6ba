#include "sqlite_hardening.h"

int notes_sqlite_harden(sqlite3 *db) {
    const int settings[][2] = {
        {SQLITE_DBCONFIG_DEFENSIVE, 1},
        {SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0},
        {SQLITE_DBCONFIG_ENABLE_TRIGGER, 0},
        {SQLITE_DBCONFIG_ENABLE_VIEW, 0},
        {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0},
    };
    for (unsigned i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        int applied = -1;
        int code = sqlite3_db_config(db, settings[i][0], settings[i][1], &applied);
        if (code != SQLITE_OK) return code;
        if (applied != settings[i][1]) return SQLITE_MISUSE;
    }
    return SQLITE_OK;
}

int notes_sqlite_set_defensive(sqlite3 *db, int on) {
    int before = 0;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &before) != SQLITE_OK) return -1;
    int after = -1;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, &after) != SQLITE_OK || after != on) return -1;
    return before;
}
