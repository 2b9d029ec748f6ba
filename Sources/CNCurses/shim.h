#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

// ncursesw from Debian's libncurses-dev, with its wide-character functions.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncurses.h>
#include <locale.h>

// What Swift cannot import from ncurses' macros.
static inline int notes_attr_reverse(void) { return A_REVERSE; }
static inline int notes_attr_bold(void) { return A_BOLD; }
static inline int notes_attr_dim(void) { return A_DIM; }
static inline int notes_attr_underline(void) { return A_UNDERLINE; }
static inline int notes_color_pair(int pair) { return COLOR_PAIR(pair); }
static inline WINDOW *notes_screen(void) { return stdscr; }
static inline int notes_lines(void) { return LINES; }
static inline int notes_columns(void) { return COLS; }

#endif
