#ifndef FILE_SYSTEM_H
#define FILE_SYSTEM_H

#include <stdint.h>
#include <sys/types.h>

/// copy_file_range(2) from the current offset of `in` to the current offset of `out`, which
/// glibc declares only with _GNU_SOURCE. Returns the bytes copied, 0 at the end of `in`, or -1
/// with errno set.
ssize_t notes_copy_file_range(int in, int out, size_t length);

/// Starts writing the dirty pages of `fd` to disk without waiting for them (sync_file_range(2)
/// with SYNC_FILE_RANGE_WRITE, which glibc declares only with _GNU_SOURCE): a later fsync(2)
/// then has little left to wait for. It makes nothing durable. Returns 0, or -1 with errno set.
int notes_start_writeback(int fd);

/// Makes durable everything written to the file system that holds `fd` (syncfs(2), which
/// glibc declares only with _GNU_SOURCE): one wait for many files written, where an fsync(2)
/// of each would wait for each. Returns 0, or -1 with errno set.
int notes_sync_file_system(int fd);

/// The inode of the file at `path` and, where the file system records it, its birth time
/// (statx(2), which glibc declares only with _GNU_SOURCE), without following a final symbolic
/// link. Returns 1 with the birth time, 0 without it (`seconds` and `nanoseconds` set to 0), or
/// -1 with errno set.
int notes_file_identity(const char *path, uint64_t *inode, int64_t *seconds, uint32_t *nanoseconds);

/// Opens a new regular file without a name in the folder `folder`, for writing, with `mode`
/// (open(2) with O_TMPFILE, which glibc declares only with _GNU_SOURCE): no name of it shows in
/// the folder, and it vanishes if the process dies before it is linked.
/// Returns the descriptor, or -1 with errno set (EOPNOTSUPP, EISDIR or EINVAL where the file
/// system makes no such file).
int notes_open_unnamed(int folder, mode_t mode);

/// Gives the unnamed file `fd` (from notes_open_unnamed) the name `name` in `folder`, with
/// linkat(2) through /proc/self/fd, which needs no privilege; fails with EEXIST when the name
/// exists, never replacing it. Returns 0, or -1 with errno set (ENOENT without /proc).
int notes_link_unnamed(int fd, int folder, const char *name);

#endif
