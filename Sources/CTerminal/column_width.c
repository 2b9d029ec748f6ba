#define _XOPEN_SOURCE 700
#define _GNU_SOURCE
#include "column_width.h"

#include <locale.h>
#include <wchar.h>

int notes_column_width(uint32_t scalar) {
    static locale_t utf8 = (locale_t)0;
    if (utf8 == (locale_t)0) utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (utf8 == (locale_t)0) return scalar < 0x20 || scalar == 0x7f ? -1 : 1;
    locale_t previous = uselocale(utf8);
    int width = wcwidth((wchar_t)scalar);
    uselocale(previous);
    return width;
}
