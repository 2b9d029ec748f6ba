#ifndef FILE_COPY_H
#define FILE_COPY_H

#include <sys/types.h>

/// copy_file_range(2) from the current offset of `in` to the current offset of `out`, which
/// glibc declares only with _GNU_SOURCE. Returns the bytes copied, 0 at the end of `in`, or -1
/// with errno set.
ssize_t notes_copy_file_range(int in, int out, size_t length);

#endif
