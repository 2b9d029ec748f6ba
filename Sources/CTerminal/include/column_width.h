#ifndef COLUMN_WIDTH_H
#define COLUMN_WIDTH_H

#include <stdint.h>

/// The columns a terminal gives the Unicode scalar `scalar`: wcwidth(3) in the C.UTF-8
/// locale, whatever the process's locale (wcwidth is declared only with _XOPEN_SOURCE).
/// 2 for wide characters, 0 for combining marks, -1 for control characters.
int notes_column_width(uint32_t scalar);

#endif
